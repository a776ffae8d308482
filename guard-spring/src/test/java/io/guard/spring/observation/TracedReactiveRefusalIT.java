package io.guard.spring.observation;

import brave.handler.MutableSpan;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link TracedRefusalTest} on WebFlux, with the limit in a real Redis (the decision completes on the client's I/O
 * thread and the handler goes on elsewhere) and {@code spring.reactor.context-propagation=auto}, as Spring Cloud
 * Gateway ships: the decision's span is a child of the request's, and Reactor's thread-local restoring logs no
 * "There is no current scope" warning (issue 24 item 0b).
 */
@RedisTest
@ExtendWith(OutputCaptureExtension.class)
class TracedReactiveRefusalIT {

    @Test
    void theDecisionIsAChildOfTheRequestAndNothingWarns(RedisEndpoint redis, CapturedOutput output) throws Exception {
        try (ConfigurableApplicationContext app = TracedRefusalTest.start(WebApplicationType.REACTIVE,
                "spring.reactor.context-propagation=auto", "guard.rate-limit.backend=redis",
                "spring.data.redis.url=" + redis.url(), "guard.rate-limit.key-prefix=" + redis.keyPrefix())) {
            assertThat(TracedRefusalTest.get(app, "/reactive/orders")).isEqualTo(200);
            for (int i = 0; i < 5; i++) {
                assertThat(TracedRefusalTest.get(app, "/reactive/orders")).isEqualTo(429);
            }

            TracedRefusalTest.Spans spans = app.getBean(TracedRefusalTest.Spans.class);
            List<MutableSpan> decisions = TracedRefusalTest.await(spans, "ratelimit trace-reactive-orders", 6);
            assertThat(decisions).extracting(span -> span.tag("guard.outcome"))
                    .containsExactly("allowed", "refused", "refused", "refused", "refused", "refused");
            assertThat(decisions.get(1).tag("guard.limit")).isEqualTo("trace-reactive-orders");
            TracedRefusalTest.assertChildOfRequestSpan(spans, decisions.get(1));
            assertThat(output).doesNotContain("There is no current scope");
        }
    }
}
