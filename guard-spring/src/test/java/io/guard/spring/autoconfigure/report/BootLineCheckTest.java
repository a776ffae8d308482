package io.guard.spring.autoconfigure.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.support.GenericApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * A starter on the wrong Spring Boot line stops start-up and names the right artifact. Runs on both lines: "wrong"
 * is whichever line this test is not running on.
 */
@ExtendWith(OutputCaptureExtension.class)
class BootLineCheckTest {

    private final int running = BootLineCheck.runningBootMajor(getClass().getClassLoader());
    private final int other = running >= 4 ? 3 : 4;
    private final String otherArtifact = other == 4 ? "guard-spring-boot-starter" : "guard-spring-boot3-starter";

    @Configuration(proxyBeanMethods = false)
    static class Empty {
    }

    @Test
    void theRunningLineIsReadFromSpringBoot() {
        assertThat(running).isIn(3, 4);
        assertThatCode(() -> new BootLineCheck(running, "guard-spring-boot-starter") { }
                .initialize(new GenericApplicationContext())).doesNotThrowAnyException();
    }

    @Test
    void theWrongLineNamesTheArtifactToUse() {
        var check = new BootLineCheck(other, otherArtifact) { };
        var failure = catchThrowableOfType(BootLineMismatchException.class,
                () -> check.initialize(new GenericApplicationContext()));
        assertThat(failure).hasMessageStartingWith("io.guard:" + otherArtifact + " is built for Spring Boot " + other
                + ".x, but this application runs on Spring Boot " + running);
        FailureAnalysis analysis = new BootLineFailureAnalyzer().analyze(failure);
        assertThat(analysis.getAction()).isEqualTo("Replace io.guard:" + otherArtifact + " with "
                + BootLineMismatchException.artifactFor(running)
                + " in your build (same version); see the compatibility table in Guard's README.");
    }

    @Test
    void anApplicationOnTheWrongLineFailsToStartWithTheAnalysis(CapturedOutput output) {
        SpringApplication application = new SpringApplication(Empty.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.addInitializers(new BootLineCheck(other, otherArtifact) { });
        var failure = catchThrowableOfType(BootLineMismatchException.class, application::run);
        assertThat(failure).isNotNull();
        assertThat(output).contains("APPLICATION FAILED TO START")
                .contains(BootLineMismatchException.artifactFor(running));
    }
}
