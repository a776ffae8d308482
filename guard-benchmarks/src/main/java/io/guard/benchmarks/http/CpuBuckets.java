package io.guard.benchmarks.http;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where an application's CPU went, from a JFR recording's {@code jdk.ExecutionSample}s: each sample goes to the bucket
 * of the frame nearest its top that is not the JDK's, Spring's utilities' or Micrometer's (so a {@code HashMap.get}
 * inside Guard's registry counts for the decision path, a Netty write under Lettuce for client I/O, a Micrometer
 * timer called by Guard for Guard's meters). A frame of Tomcat, Spring MVC or the endpoint there puts the sample in
 * the server's bucket, so a filter or an aspect wrapping the request only counts its own work. Samples of the
 * start-up thread are left out. Run:
 * {@code java -cp guard-benchmarks/target/benchmarks.jar io.guard.benchmarks.http.CpuBuckets app.jfr [top]}, where
 * {@code top} (default 0) also lists that many of the hottest Guard methods (self time).
 */
public final class CpuBuckets {

    /** Bucket by class-name prefix; the first matching prefix wins, so the narrow ones come first. */
    private static final List<Map.Entry<String, String>> BUCKETS = List.of(
            Map.entry("io.guard.spring.boot.autoconfigure.GuardMetrics", "meters"),
            Map.entry("io.guard.spring.actuate.RateLimiterMeters", "meters"),
            Map.entry("io.guard.spring.actuate.CircuitBreakerMeters", "meters"),
            Map.entry("io.guard.spring.actuate.GuardMetrics", "meters"),
            Map.entry("io.guard.event.", "events and the dashboard's history"),
            Map.entry("io.guard.spring.actuate.", "events and the dashboard's history"),
            Map.entry("io.guard.spring.ratelimit.RateLimitDecisionSink", "headers"),
            Map.entry("io.guard.spring.web.RateLimit", "headers"),
            Map.entry("io.guard.spring.web.ServletRateLimitDecisionSinks", "headers"),
            Map.entry("io.guard.spring.web.GuardRoute", "aspect and SpEL"),
            Map.entry("io.guard.spring.web.", "problem answers"),
            Map.entry("io.guard.spring.autoconfigure.CompositeDecisionSinks", "headers"),
            Map.entry("io.guard.spring.problem.", "problem answers"),
            Map.entry("io.guard.breaker.", "breaker"),
            Map.entry("io.guard.spring.aop.BreakerCall", "breaker"),
            Map.entry("io.guard.spring.aop.CircuitBreakerInterceptor", "breaker"),
            Map.entry("io.guard.ratelimit.redis.", "client I/O (Guard's script calls, Lettuce/Redisson, Netty)"),
            Map.entry("io.lettuce.", "client I/O (Guard's script calls, Lettuce/Redisson, Netty)"),
            Map.entry("org.redisson.", "client I/O (Guard's script calls, Lettuce/Redisson, Netty)"),
            Map.entry("io.netty.", "client I/O (Guard's script calls, Lettuce/Redisson, Netty)"),
            Map.entry("org.springframework.data.redis.", "client I/O (Guard's script calls, Lettuce/Redisson, Netty)"),
            Map.entry("io.guard.ratelimit.", "decision path (registry, failover, limits)"),
            Map.entry("io.guard.", "aspect and SpEL"),
            Map.entry("org.springframework.expression.", "aspect and SpEL"),
            Map.entry("org.springframework.aop.", "aspect and SpEL"),
            Map.entry("io.github.resilience4j.", "Resilience4j"),
            Map.entry("io.github.bucket4j.", "Bucket4j"));

    private CpuBuckets() {
    }

    public static void main(String[] args) throws IOException {
        int top = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        Map<String, Long> buckets = new LinkedHashMap<>();
        Map<String, Long> guardMethods = new TreeMap<>();
        Map<String, Long> threads = new TreeMap<>();
        long total = 0;
        Map<String, Long> allocations = new TreeMap<>();
        long allocated = 0;
        for (RecordedEvent event : RecordingFile.readAllEvents(Path.of(args[0]))) {
            if (top > 0 && event.getEventType().getName().equals("jdk.ObjectAllocationSample")
                    && event.getStackTrace() != null) {
                long weight = event.getLong("weight");
                allocated += weight;
                allocations.merge(allocationSite(event), weight, Long::sum);
            }
            if (!event.getEventType().getName().equals("jdk.ExecutionSample") || event.getStackTrace() == null) {
                continue;
            }
            List<RecordedFrame> frames = event.getStackTrace().getFrames();
            if (frames.stream().anyMatch(f -> f.getMethod().getType().getName().equals(ItemsApp.class.getName())
                    && f.getMethod().getName().equals("main"))) {
                continue;
            }
            total++;
            buckets.merge(bucket(frames), 1L, Long::sum);
            threads.merge(event.getThread("sampledThread") == null ? "?"
                    : event.getThread("sampledThread").getJavaName().replaceAll("\\d+", "N"), 1L, Long::sum);
            for (RecordedFrame frame : frames) {
                String type = frame.getMethod().getType().getName();
                if (type.startsWith("io.guard.")) {
                    guardMethods.merge(type + "." + frame.getMethod().getName(), 1L, Long::sum);
                    break;
                }
            }
        }
        System.out.printf(Locale.ROOT, "%d execution samples%n", total);
        long all = total;
        buckets.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> System.out.printf(Locale.ROOT, "%6.1f%%  %s%n", 100.0 * e.getValue() / all, e.getKey()));
        System.out.println("by thread:");
        threads.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(8)
                .forEach(e -> System.out.printf(Locale.ROOT, "%6.1f%%  %s%n", 100.0 * e.getValue() / all, e.getKey()));
        if (top > 0) {
            System.out.println("hottest Guard frames nearest the top of the stack:");
            guardMethods.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(top)
                    .forEach(e -> System.out.printf(Locale.ROOT, "%6.1f%%  %s%n", 100.0 * e.getValue() / all,
                            e.getKey()));
            long bytes = allocated;
            System.out.println("allocation samples (by weight) under Guard frames: class, nearest Guard frame:");
            allocations.entrySet().stream().filter(e -> !e.getKey().startsWith("-"))
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(top)
                    .forEach(e -> System.out.printf(Locale.ROOT, "%6.2f%%  %s%n", 100.0 * e.getValue() / bytes,
                            e.getKey()));
        }
    }

    /** The allocated class and the Guard frame nearest the top of the stack, or "-" when no Guard frame is on it. */
    private static String allocationSite(RecordedEvent event) {
        String allocatedClass = event.getClass("objectClass").getName();
        for (RecordedFrame frame : event.getStackTrace().getFrames()) {
            String type = frame.getMethod().getType().getName();
            if (type.startsWith("io.guard.") && !type.startsWith("io.guard.benchmarks.")) {
                return allocatedClass + "  " + type + "." + frame.getMethod().getName() + ":"
                        + frame.getLineNumber();
            }
        }
        return "-";
    }

    private static String bucket(List<RecordedFrame> frames) {
        boolean micrometer = false;
        for (RecordedFrame frame : frames) {
            String type = frame.getMethod().getType().getName();
            if (type.startsWith("io.micrometer.")) {
                micrometer = true;
                continue;
            }
            if (SKIPPED.stream().anyMatch(type::startsWith)) {
                continue;
            }
            if (micrometer) {
                return type.startsWith("io.guard.") ? "meters" : "Spring's own observations (http.server.requests)";
            }
            for (Map.Entry<String, String> bucket : BUCKETS) {
                if (type.startsWith(bucket.getKey())) {
                    return bucket.getValue();
                }
            }
            return "Tomcat, Spring MVC, the endpoint";
        }
        return micrometer ? "Spring's own observations (http.server.requests)" : "JDK only (thread pools, timers)";
    }

    /** Frames that work for whoever called them. */
    private static final List<String> SKIPPED = List.of("java.", "jdk.", "sun.", "com.sun.",
            "org.springframework.core.", "org.springframework.util.", "org.slf4j.", "ch.qos.logback.");
}
