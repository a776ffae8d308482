package io.guard.spring.key;

/**
 * Computes the key of a {@code @RateLimit} in Java, for keys a SpEL expression would make hard to read or to reuse:
 * a tenant looked up from an API key, a client IP cut to its network, a key shared by many controllers. Declare it
 * as a bean and name the bean on the annotation; Guard checks at start-up that the bean exists and has this type.
 *
 * <pre>{@code
 * @Bean
 * RateLimitKeyResolver tenantKey(Tenants tenants) {
 *     return call -> tenants.byApiKey(call.header("X-Api-Key"));
 * }
 *
 * @RateLimit(name = "reports", keyResolver = "tenantKey", rate = 10, interval = "60s")
 * }</pre>
 *
 * <p>Called once per call (per subscription for {@code Mono}/{@code Flux}) on the thread that decides, so it must
 * not block. An exception it throws fails the call.
 */
@FunctionalInterface
public interface RateLimitKeyResolver {

    /**
     * @param call the guarded call and, inside a web request, what the request says about its client
     * @return the key of this call; null or blank when it has none, in which case
     *         {@code guard.rate-limit.missing-key} decides (refuse with 400, or share one quota)
     */
    String resolve(RateLimitKeyContext call);
}
