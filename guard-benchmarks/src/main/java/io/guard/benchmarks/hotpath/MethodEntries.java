package io.guard.benchmarks.hotpath;

import net.bytebuddy.agent.ByteBuddyAgent;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.matcher.ElementMatchers;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts entries into Guard's methods and constructors ({@code io.guard.*}, the benchmarks left out) while switched
 * on, on every thread: Byte Buddy attaches to this JVM and retransforms Guard's classes with a one-line advice. JFR on
 * JDK 17 samples stacks but cannot count calls; this counts every entry, so two builds can be compared exactly.
 * Lambdas count as the synthetic method that holds their body, in the class that wrote them.
 */
public final class MethodEntries {

    private static final Map<String, LongAdder> COUNTS = new ConcurrentHashMap<>();
    private static volatile boolean on;

    private MethodEntries() {
    }

    /** Instruments every loaded and future {@code io.guard} class; counting starts switched off. */
    static void install() {
        new AgentBuilder.Default()
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .type(ElementMatchers.nameStartsWith("io.guard.")
                        .and(ElementMatchers.not(ElementMatchers.nameStartsWith("io.guard.benchmarks."))))
                .transform((builder, type, loader, module, domain) -> builder.visit(
                        Advice.to(Entry.class).on(ElementMatchers.isMethod().or(ElementMatchers.isConstructor()))))
                .installOn(ByteBuddyAgent.install());
    }

    static void start() {
        COUNTS.clear();
        on = true;
    }

    /** Stops counting; the entries counted since {@link #start()}, by {@code class::method}, sorted. */
    static Map<String, Long> stop() {
        on = false;
        Map<String, Long> counted = new TreeMap<>();
        COUNTS.forEach((method, count) -> counted.put(method, count.sum()));
        return counted;
    }

    /** Called by the advice; public because instrumented classes in other packages call it. */
    public static void entered(String method) {
        if (on) {
            COUNTS.computeIfAbsent(method, m -> new LongAdder()).increment();
        }
    }

    /** Inlined into every instrumented method and constructor. */
    static final class Entry {
        @Advice.OnMethodEnter
        static void enter(@Advice.Origin("#t::#m") String method) {
            MethodEntries.entered(method);
        }
    }
}
