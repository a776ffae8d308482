package io.guard.time;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BoundedWaitTest {

    @Test
    void aStoreThatAnswersGivesItsValue() {
        assertThat(BoundedWait.join(CompletableFuture.completedFuture("ok"), Duration.ofSeconds(1), "x store"))
                .isEqualTo("ok");
    }

    @Test
    void aStoreThatFailsOrDoesNotAnswerInTimeIsNamed() {
        assertThatThrownBy(() -> BoundedWait.join(CompletableFuture.failedFuture(new IOException("refused")),
                Duration.ofSeconds(1), "breaker state store")).isInstanceOf(IllegalStateException.class)
                .hasMessage("the breaker state store failed: java.io.IOException: refused");
        assertThatThrownBy(() -> BoundedWait.join(new CompletableFuture<>(), Duration.ofMillis(1), "override store"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the override store did not answer within PT0.001S");
    }
}
