package io.guard.spring.aot;

import org.junit.jupiter.api.Test;
import org.springframework.mock.env.MockEnvironment;

import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

class BuildTimeSettingsTest {

    @Test
    void recordsEverySettingWithItsValueWhenUnset() {
        Properties recorded = BuildTimeSettings.record(new MockEnvironment()
                .withProperty("guard.resilient-methods.position", "INSIDE"));

        assertThat(recorded.stringPropertyNames()).containsExactlyInAnyOrderElementsOf(BuildTimeSettings.names());
        assertThat(recorded.getProperty("guard.resilient-methods.position")).isEqualTo("inside");
        assertThat(recorded.getProperty("guard.observations.enabled")).isEqualTo("true");
        assertThat(recorded.getProperty("guard.rate-limit.backend")).isEqualTo("auto");
    }

    @Test
    void namesEachSettingTheRunTimeSetsOtherwise() {
        Properties recorded = BuildTimeSettings.record(new MockEnvironment());

        assertThat(BuildTimeSettings.differences(recorded, new MockEnvironment()
                .withProperty("guard.observations.enabled", "false")
                .withProperty("guard.resilient-methods.position", "inside")
                .withProperty("guard.rate-limit.backend", "AUTO")))
                .containsExactly(
                        "guard.resilient-methods.position is 'inside' now but was 'outside' when Spring AOT processed "
                                + "the application: the build-time value is in force",
                        "guard.observations.enabled is 'false' now but was 'true' when Spring AOT processed the "
                                + "application: the build-time value is in force");
    }

    @Test
    void theSameValueSpelledOtherwiseAndSettingsTheBuildDidNotRecordAreNoDifference() {
        Properties recorded = new Properties();
        recorded.setProperty("guard.rate-limit.backend", "local");

        assertThat(BuildTimeSettings.differences(recorded, new MockEnvironment()
                .withProperty("guard.rate-limit.backend", " LOCAL ")
                .withProperty("guard.enabled", "false"))).isEmpty();
    }
}
