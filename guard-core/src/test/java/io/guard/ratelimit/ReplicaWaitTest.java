package io.guard.ratelimit;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReplicaWaitTest {

    @Test
    void aPolicyWaitsForNoReplicaUnlessTold() {
        RateLimitPolicy policy = RateLimitPolicy.of("orders", Algorithm.TOKEN_BUCKET, 5, Duration.ofSeconds(1));
        assertThat(policy.replicaWait()).isEqualTo(ReplicaWait.NONE);
        assertThat(policy.replicaWait().waits()).isFalse();
        ReplicaWait one = new ReplicaWait(1, Duration.ofMillis(50));
        RateLimitPolicy waiting = policy.withReplicaWait(one);
        assertThat(waiting.replicaWait()).isEqualTo(one);
        assertThat(waiting.replicaWait().waits()).isTrue();
        assertThat(waiting.withRate(7).withInterval(Duration.ofSeconds(2)).replicaWait()).as("kept by the withers")
                .isEqualTo(one);
        assertThat(waiting.withReplicaWait(null).replicaWait()).isEqualTo(ReplicaWait.NONE);
    }

    @Test
    void aNegativeCountAndAZeroTimeoutAreRefusedNamingTheProperty() {
        assertThatThrownBy(() -> new ReplicaWait(-1, Duration.ofMillis(50)))
                .hasMessage("wait-for-replicas must not be negative but was -1");
        assertThatThrownBy(() -> new ReplicaWait(1, Duration.ZERO))
                .hasMessageContaining("wait-for-replicas-timeout must be at least 1ms")
                .hasMessageContaining("Redis reads 0 as waiting forever");
        assertThat(new ReplicaWait(0, Duration.ZERO)).isEqualTo(ReplicaWait.NONE);
    }
}
