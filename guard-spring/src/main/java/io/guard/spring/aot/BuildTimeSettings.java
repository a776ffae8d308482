package io.guard.spring.aot;

import org.springframework.core.env.Environment;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * The settings whose value Spring AOT fixes at build time: each decides a condition, so which beans exist is decided
 * when the application is processed, and a different value at run time changes nothing. Guard records their values
 * while processing ({@link GuardSettingsAotProcessor}) and says at start-up which ones the run time sets differently
 * ({@link BuildTimeSettingsCheck}); docs/native.md lists them.
 */
final class BuildTimeSettings {

    /** Where the values seen while processing are written, next to the generated code. */
    static final String RESOURCE = "META-INF/guard/aot-build-time-settings.properties";

    /** Each setting with the value it has when unset (the condition's {@code matchIfMissing} or the enum default). */
    private static final List<Setting> SETTINGS = List.of(
            new Setting("guard.enabled", "true"),
            new Setting("guard.rate-limit.backend", "auto"),
            new Setting("guard.rate-limit.redis.client", "auto"),
            new Setting("guard.resilient-methods.position", "outside"),
            new Setting("guard.observations.enabled", "true"),
            new Setting("management.endpoint.guardevents.stream.enabled", "true"));

    private record Setting(String name, String unset) {

        String valueIn(Environment environment) {
            return normalized(environment.getProperty(name, unset));
        }
    }

    private BuildTimeSettings() {
    }

    static List<String> names() {
        return SETTINGS.stream().map(Setting::name).toList();
    }

    /** The value of every setting in {@code environment}, as the processor records them. */
    static Properties record(Environment environment) {
        Properties values = new Properties();
        for (Setting setting : SETTINGS) {
            values.setProperty(setting.name(), setting.valueIn(environment));
        }
        return values;
    }

    /**
     * One sentence per setting that {@code environment} (the run time) sets otherwise than {@code recorded} (the
     * build time); a setting the build did not record (an older build) is not compared.
     */
    static List<String> differences(Properties recorded, Environment environment) {
        List<String> differences = new ArrayList<>();
        for (Setting setting : SETTINGS) {
            String atBuild = recorded.getProperty(setting.name());
            String now = setting.valueIn(environment);
            if (atBuild != null && !atBuild.equals(now)) {
                differences.add(setting.name() + " is '" + now + "' now but was '" + atBuild
                        + "' when Spring AOT processed the application: the build-time value is in force");
            }
        }
        return differences;
    }

    /** Relaxed as Boot binds enums and booleans: {@code INSIDE}, {@code inside} and {@code " inside "} are one. */
    private static String normalized(String value) {
        return value.trim().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
