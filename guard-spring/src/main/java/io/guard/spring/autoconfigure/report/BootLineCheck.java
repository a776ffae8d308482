package io.guard.spring.autoconfigure.report;

import org.springframework.boot.SpringBootVersion;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.ClassUtils;

/**
 * Stops an application whose Guard starter was built for another Spring Boot line, before any of the starter's
 * auto-configuration is loaded: on the wrong line those classes would fail with a {@code NoClassDefFoundError} or,
 * worse, silently back off (no health component, no meters). Each starter registers a subclass naming its line.
 * The failure is reported by {@link BootLineFailureAnalyzer}, naming the artifact to use instead.
 */
public abstract class BootLineCheck implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    /** Present from Spring Boot 4.0 on (it moved there from {@code org.springframework.boot.env}). */
    private static final String BOOT_4_MARKER = "org.springframework.boot.EnvironmentPostProcessor";

    private final int bootMajor;
    private final String artifact;

    /**
     * @param bootMajor the Spring Boot major version the starter was built for
     * @param artifact  the starter's artifact id, as users write it in their build
     */
    protected BootLineCheck(int bootMajor, String artifact) {
        this.bootMajor = bootMajor;
        this.artifact = artifact;
    }

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        int running = runningBootMajor(context.getClassLoader());
        if (running != bootMajor) {
            throw new BootLineMismatchException(artifact, bootMajor, running, SpringBootVersion.getVersion());
        }
    }

    /** The major version of the Spring Boot on the class path, from its manifest or else from its classes. */
    static int runningBootMajor(ClassLoader classLoader) {
        String version = SpringBootVersion.getVersion();
        if (version != null && !version.isEmpty() && Character.isDigit(version.charAt(0))) {
            int dot = version.indexOf('.');
            return Integer.parseInt(dot < 0 ? version : version.substring(0, dot));
        }
        return ClassUtils.isPresent(BOOT_4_MARKER, classLoader) ? 4 : 3;
    }
}
