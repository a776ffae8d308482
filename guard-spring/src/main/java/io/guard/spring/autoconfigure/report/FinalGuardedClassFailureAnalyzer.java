package io.guard.spring.autoconfigure.report;

import io.guard.spring.method.GuardedMethods;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.KotlinDetector;
import org.springframework.util.ClassUtils;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Explains why a bean with Guard annotations cannot start when its class is final: Spring's subclass proxy, which
 * carries the annotations, cannot extend it, and Spring's own message talks about CGLIB. A Kotlin class is final
 * unless the kotlin-spring compiler plugin opens it, which is how most Kotlin users meet this (issue 35's notes).
 */
class FinalGuardedClassFailureAnalyzer implements FailureAnalyzer {

    private static final Pattern FINAL_CLASS = Pattern.compile("Cannot subclass final class ([\\w.$]+)");

    @Override
    public FailureAnalysis analyze(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            Matcher matcher = t.getMessage() == null ? null : FINAL_CLASS.matcher(t.getMessage());
            if (matcher != null && matcher.find()) {
                Class<?> type = load(matcher.group(1));
                if (type != null && GuardedMethods.isCandidate(type)) {
                    return analysis(type, failure);
                }
            }
        }
        return null;
    }

    private static FailureAnalysis analysis(Class<?> type, Throwable failure) {
        boolean kotlin = KotlinDetector.isKotlinType(type);
        String description = "Class " + type.getName() + " carries Guard annotations (@RateLimit, @CircuitBreaker), "
                + "which apply through a Spring proxy that subclasses the bean's class, but the class is final"
                + (kotlin ? " (Kotlin classes are final unless opened)" : "") + ".";
        String action = kotlin
                ? "Apply the kotlin-spring compiler plugin (org.jetbrains.kotlin.plugin.spring, 'kotlin-spring' in "
                + "kotlin-maven-plugin's compilerPlugins), which opens Spring-annotated classes and their members, "
                + "or declare " + type.getSimpleName() + " and its guarded functions open."
                : "Remove final from " + type.getSimpleName() + " (and from its guarded methods).";
        return new FailureAnalysis(description, action, failure);
    }

    private static Class<?> load(String name) {
        try {
            return ClassUtils.forName(name, ClassUtils.getDefaultClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }
}
