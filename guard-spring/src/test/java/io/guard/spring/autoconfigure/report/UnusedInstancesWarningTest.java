package io.guard.spring.autoconfigure.report;

import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class UnusedInstancesWarningTest {

    private final ApplicationContextRunner application = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(AopAutoConfiguration.class, GuardAutoConfiguration.class))
            .withBean(OwnerController.class)
            .withPropertyValues("guard.rate-limit.backend=local");

    @Test
    void warnsAboutAConfiguredLimitNoAnnotationUsesAndNamesTheClosestOne(CapturedOutput output) {
        application.withPropertyValues("guard.rate-limit.instances.owner-serch.rate=5",
                "guard.rate-limit.instances.owner-serch.interval=1m",
                "guard.circuit-breaker.instances.vet-directory.sliding-window-size=10",
                "guard.circuit-breaker.instances.owners-db.sliding-window-size=10").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(UnusedInstancesWarning.class).warnings()).containsExactly(
                            "guard.rate-limit.instances.owner-serch is configured but no @RateLimit (nor code) uses "
                                    + "the name 'owner-serch', so these settings apply to nothing; did you mean "
                                    + "'owner-search'?",
                            "guard.circuit-breaker.instances.owners-db is configured but no @CircuitBreaker (nor code) "
                                    + "uses the name 'owners-db', so these settings apply to nothing.");
                });
        assertThat(output.getOut()).contains("WARN").contains("did you mean 'owner-search'?");
    }

    @Test
    void saysNothingWhenEveryConfiguredNameIsUsed(CapturedOutput output) {
        application.withPropertyValues("guard.rate-limit.instances.owner-search.rate=5",
                "guard.rate-limit.instances.owner-search.interval=1m",
                "guard.circuit-breaker.instances.vet-directory.sliding-window-size=10").run(context ->
                assertThat(context.getBean(UnusedInstancesWarning.class).warnings()).isEmpty());
        assertThat(output.getOut()).doesNotContain("is configured but no");
    }

    @Test
    void theClosestNameIsOnlyOfferedWhenItIsClose() {
        assertThat(UnusedInstancesWarning.closest("owner-serch", List.of("owner-search", "vets"))).contains("owner-search");
        assertThat(UnusedInstancesWarning.closest("payments", List.of("owner-search", "vets"))).isEmpty();
        assertThat(UnusedInstancesWarning.distance("kitten", "sitting")).isEqualTo(3);
    }

    static class OwnerController {

        @RateLimit(name = "owner-search", rate = 10, interval = "1m")
        public String search(String lastName) {
            return lastName;
        }

        @CircuitBreaker(name = "vet-directory")
        public String vets() {
            return "vets";
        }
    }
}
