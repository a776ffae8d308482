package io.guard.benchmarks.startup.app;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.metrics.buffering.BufferingApplicationStartup;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The application {@link io.guard.benchmarks.startup.StartupCost} starts again and again: one endpoint, web (MVC or
 * WebFlux, whichever its class path has), actuator and Spring Data Redis on Lettuce, with or without Guard on the
 * class path. When {@code SpringApplication.run} returns it prints one line with its own CPU so far (from
 * {@code /proc/self/stat}, read before anything else), the classes loaded, the Guard beans and the port. With
 * {@code -Dapp.steps=true} it records Spring's start-up steps first and prints the slowest beans
 * ({@link StartupSteps}).
 */
@SpringBootApplication
public class StartupApp {

    public static void main(String[] args) throws IOException {
        SpringApplication application = new SpringApplication(StartupApp.class);
        BufferingApplicationStartup steps = Boolean.getBoolean("app.steps") ? new BufferingApplicationStartup(100_000)
                : null;
        if (steps != null) {
            application.setApplicationStartup(steps);
        }
        ConfigurableApplicationContext context = application.run(args);
        long cpuMillis = processCpuMillis();
        if (steps != null) {
            StartupSteps.print(steps);
        }
        long classes = ManagementFactory.getClassLoadingMXBean().getTotalLoadedClassCount();
        long guardBeans = Arrays.stream(context.getBeanDefinitionNames())
                .map(context.getBeanFactory()::getBeanDefinition)
                .map(definition -> definition.getResolvableType().resolve(Object.class).getName())
                .filter(type -> type.startsWith("io.guard.") && !type.startsWith("io.guard.benchmarks.")).count();
        System.out.println("STARTUP cpuMs=" + cpuMillis + " classes=" + classes + " guardBeans=" + guardBeans
                + " port=" + context.getEnvironment().getProperty("local.server.port"));
    }

    /** utime + stime of this process, fields 14 and 15 of /proc/self/stat, in clock ticks of 10 ms. */
    static long processCpuMillis() throws IOException {
        String stat = Files.readString(Path.of("/proc/self/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10;
    }
}
