package io.guard.spring.autoconfigure.report;

import org.jspecify.annotations.Nullable;

/** A Guard starter on a Spring Boot line it was not built for; see {@link BootLineCheck}. */
class BootLineMismatchException extends RuntimeException {

    /** The starter to use on each Spring Boot major version. */
    static String artifactFor(int bootMajor) {
        return bootMajor >= 4 ? "io.guard:guard-spring-boot-starter" : "io.guard:guard-spring-boot3-starter";
    }

    private final String artifact;
    private final int runningMajor;

    BootLineMismatchException(String artifact, int builtFor, int runningMajor, @Nullable String runningVersion) {
        super("io.guard:" + artifact + " is built for Spring Boot " + builtFor + ".x, but this application runs on "
                + "Spring Boot " + (runningVersion != null ? runningVersion : runningMajor + ".x") + ".");
        this.artifact = artifact;
        this.runningMajor = runningMajor;
    }

    String action() {
        return "Replace io.guard:" + artifact + " with " + artifactFor(runningMajor)
                + " in your build (same version); see the compatibility table in Guard's README.";
    }
}
