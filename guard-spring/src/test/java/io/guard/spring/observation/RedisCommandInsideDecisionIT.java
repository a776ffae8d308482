package io.guard.spring.observation;

import io.guard.spring.annotation.RateLimit;
import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.AutoConfigs;
import io.guard.test.redis.RedisEndpoint;
import io.guard.test.redis.RedisTest;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.tracing.MicrometerTracing;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import reactor.core.publisher.Mono;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On Spring Data Redis (Lettuce) with Lettuce's commands observed, as Spring Boot sets them up: the script a decision
 * runs is observed as a child of the decision's observation (its span inside the decision's span), not beside it,
 * for plain and reactive methods (issue 35 item 3).
 */
@RedisTest
class RedisCommandInsideDecisionIT {

    static class Catalogue {
        @RateLimit(name = "traced-browse", rate = 100, interval = "60s")
        public String browse() {
            return "items";
        }

        @RateLimit(name = "traced-feed", rate = 100, interval = "60s")
        public Mono<String> feed() {
            return Mono.just("feed");
        }
    }

    @Test
    void theScriptOfADecisionIsObservedInsideTheDecision(RedisEndpoint redis) {
        RecordingHandler recorded = new RecordingHandler();
        ObservationRegistry observations = RecordingHandler.registryReportingTo(recorded);
        ClientResources resources = ClientResources.builder()
                .tracing(new MicrometerTracing(observations, "guard-test-redis")).build();
        try {
            new ApplicationContextRunner()
                    .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class,
                            AutoConfigs.type("DataRedisAutoConfiguration|RedisAutoConfiguration"),
                            GuardAutoConfiguration.class))
                    .withBean(ObservationRegistry.class, () -> observations)
                    .withBean(ClientResources.class, () -> resources)
                    .withBean(Catalogue.class)
                    .withPropertyValues("spring.data.redis.host=" + redis.host(),
                            "spring.data.redis.port=" + redis.port(), "guard.rate-limit.backend=redis",
                            "guard.rate-limit.redis.client=spring-data", "guard.rate-limit.redis.timeout=2s",
                            "guard.rate-limit.key-prefix=" + redis.keyPrefix())
                    .run(context -> {
                        assertThat(context).hasNotFailed();
                        Catalogue catalogue = context.getBean(Catalogue.class);
                        int before = recorded.stopped().size();

                        assertThat(catalogue.browse()).isEqualTo("items");
                        assertThat(catalogue.feed().block()).isEqualTo("feed");

                        List<Observation.Context> during = recorded.stopped().subList(before, recorded.stopped().size());
                        for (String limit : List.of("traced-browse", "traced-feed")) {
                            Observation.Context decision = during.stream()
                                    .filter(c -> c instanceof RateLimitObservationContext r && limit.equals(r.getLimit()))
                                    .findFirst().orElseThrow();
                            List<Observation.Context> scripts = during.stream()
                                    .filter(c -> c.getClass().getSimpleName().startsWith("Lettuce"))
                                    .filter(c -> c.getParentObservation() != null
                                            && c.getParentObservation().getContextView() == decision)
                                    .toList();
                            assertThat(scripts).as("Lettuce observations whose parent is the decision of %s; all "
                                    + "observed: %s", limit, during).isNotEmpty();
                        }
                    });
        } finally {
            resources.shutdown();
        }
    }
}
