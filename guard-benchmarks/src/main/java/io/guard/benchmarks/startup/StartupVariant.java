package io.guard.benchmarks.startup;

import java.util.List;
import java.util.function.Predicate;

/**
 * One way to start {@link io.guard.benchmarks.startup.app.StartupApp}: which jars of the benchmark module's class
 * path it gets and which properties. Jars are matched by file name, so the variants differ only in what they name.
 */
enum StartupVariant {

    NONE("no Guard", Web.MVC, false, false),
    NONE_PING("no Guard, app pings Redis at start", Web.MVC, false, false, "--app.ping=true"),
    DISABLED("Guard jar, guard.enabled=false", Web.MVC, true, false, "--guard.enabled=false"),
    LETTUCE("Guard on the app's Lettuce", Web.MVC, true, false),
    NONE_REDISSON("no Guard, app has a RedissonClient", Web.MVC, false, true, "--app.redisson=true"),
    REDISSON("Guard on the app's RedissonClient", Web.MVC, true, true, "--app.redisson=true"),
    FLUX_NONE("WebFlux, no Guard", Web.FLUX, false, false),
    FLUX_NONE_PING("WebFlux, no Guard, app pings Redis at start", Web.FLUX, false, false, "--app.ping=true"),
    FLUX_DISABLED("WebFlux, Guard jar, guard.enabled=false", Web.FLUX, true, false, "--guard.enabled=false"),
    FLUX_LETTUCE("WebFlux, Guard on the app's Lettuce", Web.FLUX, true, false);

    enum Web { MVC, FLUX }

    /** Test and benchmark tools of this module (AspectJ is Resilience4j's), never part of the application. */
    private static final List<String> TOOLS = List.of("resilience4j-", "bucket4j", "jmh-", "jopt-simple",
            "commons-math3", "byte-buddy-agent", "guard-test-support", "testcontainers", "docker-java", "duct-tape",
            "embedded-redis", "jna-", "junit-", "opentest4j", "apiguardian", "jedis-", "redis-authx", "json-2",
            "gson-", "micrometer-registry-prometheus", "prometheus-metrics-", "aspectjweaver-",
            "spring-boot-starter-aspectj-");
    /** Guard's own jars (its starter brings nothing else an application of this kind lacks). */
    private static final List<String> GUARD = List.of("guard-core-", "guard-redis-", "guard-spring-");
    /** What org.redisson:redisson brings beyond Netty and Reactor, which Lettuce has too. */
    private static final List<String> REDISSON_JARS = List.of("redisson-", "kryo-", "minlog-", "reflectasm-",
            "objenesis-", "jodd-util-", "rxjava-", "byte-buddy-1", "cache-api-");
    private static final List<String> MVC = List.of("spring-webmvc-", "spring-boot-webmvc-",
            "spring-boot-starter-webmvc-", "tomcat-embed-", "spring-boot-tomcat-", "spring-boot-starter-tomcat",
            "spring-boot-servlet-");
    private static final List<String> FLUX = List.of("spring-webflux-", "spring-boot-webflux-",
            "spring-boot-starter-webflux-", "reactor-netty-", "spring-boot-reactor-netty-",
            "spring-boot-starter-reactor-netty-");

    final String label;
    final Web web;
    final boolean guard;
    final boolean redisson;
    final List<String> arguments;

    StartupVariant(String label, Web web, boolean guard, boolean redisson, String... arguments) {
        this.label = label;
        this.web = web;
        this.guard = guard;
        this.redisson = redisson;
        this.arguments = List.of(arguments);
    }

    /**
     * Whether the jar (a file name) belongs on this variant's class path; {@code before} keeps AspectJ with Guard, as
     * the starters brought it before they stopped doing so.
     */
    boolean wants(String jar, boolean before) {
        Predicate<List<String>> named = prefixes -> prefixes.stream().anyMatch(jar::startsWith);
        if (before && (jar.startsWith("aspectjweaver-") || jar.startsWith("spring-boot-starter-aspectj-"))) {
            return guard;
        }
        if (named.test(TOOLS)) {
            return false;
        }
        if (named.test(GUARD)) {
            return guard;
        }
        if (named.test(REDISSON_JARS)) {
            return redisson;
        }
        if (named.test(MVC)) {
            return web == Web.MVC;
        }
        if (named.test(FLUX)) {
            return web == Web.FLUX;
        }
        return true;
    }
}
