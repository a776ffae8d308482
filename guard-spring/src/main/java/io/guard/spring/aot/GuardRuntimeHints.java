package io.guard.spring.aot;

import io.guard.spring.actuate.GuardEventStreamProperties;
import io.guard.spring.autoconfigure.GuardProperties;
import io.guard.spring.autoconfigure.RouteProperties;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.boot.context.properties.bind.BindableRuntimeHintsRegistrar;
import org.springframework.util.ReflectionUtils;

import java.lang.reflect.Method;
import java.util.List;

/**
 * What Guard reads by reflection or from the class path whatever the application's own classes are, declared for
 * Spring AOT so that a native image keeps it: the Lua scripts and the dashboard's files, {@code #root} of key
 * expressions, the properties bound outside a {@code @ConfigurationProperties} bean, and the optional classes Guard
 * looks up by name. The guarded beans' fallbacks and parameter types are {@link GuardedBeanAotProcessor}'s; the
 * actuator's JSON payloads are {@code io.guard.spring.actuate}'s own registrar.
 */
class GuardRuntimeHints implements RuntimeHintsRegistrar {

    /** {@code #root} of Guard's expressions. */
    static final String EXPRESSION_ROOT = "io.guard.spring.method.GuardExpressionRoot";

    /** The scripts guard-redis loads with {@code getResourceAsStream}: one per algorithm plus the dispatcher. */
    static final String LUA_SCRIPTS = "guard/lua/*.lua";

    /** The page the {@code guarddashboard} endpoint serves, and its script and style sheet. */
    static final String DASHBOARD = "io/guard/spring/actuate/dashboard/*";

    /**
     * Classes Guard asks for by name ({@code ClassUtils.isPresent}) to find out which optional parts the application
     * has: a native image answers such a question only for a type it was told about.
     */
    static final List<String> LOOKED_UP_BY_NAME = List.of(
            "jakarta.servlet.http.HttpServletRequest",
            "org.springframework.web.context.request.RequestContextHolder",
            "org.springframework.web.server.ServerWebExchange",
            "reactor.core.publisher.Mono",
            "org.springframework.security.authentication.AnonymousAuthenticationToken",
            "org.springframework.security.core.context.SecurityContextHolder",
            "org.springframework.boot.EnvironmentPostProcessor",
            "io.lettuce.core.RedisClient",
            "org.springframework.data.redis.connection.RedisConnectionFactory",
            "org.redisson.api.RedissonClient",
            "com.netflix.concurrency.limits.Limit");

    @Override
    public void registerHints(RuntimeHints hints, ClassLoader classLoader) {
        hints.resources().registerPattern(LUA_SCRIPTS).registerPattern(DASHBOARD);
        registerExpressionRoot(hints);
        // Bound with a Binder outside the properties beans too (routes at start-up, everything on a refresh).
        BindableRuntimeHintsRegistrar.forTypes(GuardProperties.class, RouteProperties.class,
                GuardEventStreamProperties.class).registerHints(hints, classLoader);
        LOOKED_UP_BY_NAME.forEach(name -> hints.reflection().registerType(TypeReference.of(name)));
    }

    /** {@code #root.methodName}, {@code #root.args}, {@code #root.targetClass.simpleName}, {@code #root.method.name}. */
    private static void registerExpressionRoot(RuntimeHints hints) {
        // By name: the root is package-private to io.guard.spring.method; GuardRuntimeHintsTest loads it.
        hints.reflection().registerType(TypeReference.of(EXPRESSION_ROOT), MemberCategory.INVOKE_PUBLIC_METHODS);
        register(hints, Class.class, "getName");
        register(hints, Class.class, "getSimpleName");
        register(hints, Method.class, "getName");
    }

    private static void register(RuntimeHints hints, Class<?> type, String getter) {
        Method method = ReflectionUtils.findMethod(type, getter);
        if (method == null) {
            throw new IllegalStateException(type.getName() + " has no method " + getter + "()");
        }
        hints.reflection().registerMethod(method, ExecutableMode.INVOKE);
    }
}
