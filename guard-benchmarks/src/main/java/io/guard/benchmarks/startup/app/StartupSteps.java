package io.guard.benchmarks.startup.app;

import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.boot.context.metrics.buffering.StartupTimeline;
import org.springframework.core.metrics.StartupStep;

import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;

/**
 * Where start-up time went, from Spring's own {@code ApplicationStartup} steps: the 25 slowest bean instantiations
 * (a bean's time includes the beans it needed first), the Guard beans' own steps and their total.
 */
final class StartupSteps {

    private StartupSteps() {
    }

    static void print(BufferingApplicationStartup startup) {
        List<StartupTimeline.TimelineEvent> events = startup.getBufferedTimeline().getEvents();
        Map<Long, Long> childNanos = new HashMap<>();
        for (StartupTimeline.TimelineEvent event : events) {
            Long parent = event.getStartupStep().getParentId();
            if (parent != null) {
                childNanos.merge(parent, event.getDuration().toNanos(), Long::sum);
            }
        }
        long guardSelf = 0;
        for (StartupTimeline.TimelineEvent event : events) {
            String bean = beanName(event.getStartupStep());
            if (bean != null && bean.toLowerCase().contains("guard")) {
                guardSelf += event.getDuration().toNanos() - childNanos.getOrDefault(event.getStartupStep().getId(), 0L);
            }
        }
        System.out.println("STEPS guard beans' own time: " + Duration.ofNanos(guardSelf).toMillis() + " ms");
        events.stream().filter(e -> {
                    String bean = beanName(e.getStartupStep());
                    return bean != null && bean.toLowerCase().contains("guard");
                })
                .sorted(Comparator.comparing((StartupTimeline.TimelineEvent e) -> e.getDuration().toNanos()
                        - childNanos.getOrDefault(e.getStartupStep().getId(), 0L)).reversed()).limit(12)
                .forEach(e -> System.out.println("STEPS guard " + e.getStartupStep().getName() + " "
                        + beanName(e.getStartupStep()) + " own " + Duration.ofNanos(e.getDuration().toNanos()
                        - childNanos.getOrDefault(e.getStartupStep().getId(), 0L)).toMillis() + " ms"));
        events.stream().filter(e -> e.getStartupStep().getName().equals("spring.beans.instantiate"))
                .sorted(Comparator.comparing(StartupTimeline.TimelineEvent::getDuration).reversed()).limit(25)
                .forEach(e -> System.out.println("STEPS " + e.getDuration().toMillis() + " ms (own "
                        + Duration.ofNanos(e.getDuration().toNanos()
                        - childNanos.getOrDefault(e.getStartupStep().getId(), 0L)).toMillis() + " ms) "
                        + beanName(e.getStartupStep())));
    }

    private static String beanName(StartupStep step) {
        return StreamSupport.stream(step.getTags().spliterator(), false)
                .filter(tag -> tag.getKey().equals("beanName")).map(StartupStep.Tag::getValue).findFirst()
                .orElse(null);
    }
}
