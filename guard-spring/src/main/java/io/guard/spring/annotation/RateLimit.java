package io.guard.spring.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Limits how often the annotated method (or every public method of the annotated class) may be called, with a
 * quota shared by every instance of the service.
 *
 * <p>Attributes left at their defaults are taken from {@code guard.rate-limit.instances.<name>.*}, then from
 * {@code guard.rate-limit.defaults.*}; a property set for the instance overrides the annotation, so operators can
 * change a limit without a release. Repeat the annotation to apply several limits: a call must pass all of them.
 *
 * <pre>{@code
 * @RateLimit(name = "order-submit", key = "#userId", rate = 5, interval = "60s")
 * public Order submit(long userId, OrderRequest request) { ... }
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.TYPE})
@Repeatable(RateLimits.class)
public @interface RateLimit {

    /** The limiter's name: its configuration key, its metrics tag and part of its Redis keys. */
    String name();

    /**
     * SpEL over the method's parameters ({@code #userId}, {@code #p0}), {@code #root} and beans ({@code @bean}), and,
     * inside a web request, {@code #clientIp}, {@code #principal} and {@code #headers} (null outside one; a parameter
     * of the same name wins). Empty: one key for the whole method. Resolved keys are sanitized and bounded before
     * they reach Redis.
     */
    String key() default "";

    /**
     * The name of a {@code io.guard.spring.key.RateLimitKeyResolver} bean that computes the key instead of
     * {@link #key()} (set one or the other). Checked at start-up. Empty: the key comes from {@link #key()}.
     */
    String keyResolver() default "";

    /**
     * SpEL over the same variables as {@link #key()}: the limit applies to a call only when it is true (like
     * {@code @Cacheable}'s condition), e.g. {@code "!#internal"} or {@code "#plan == 'free'"}. Empty: always.
     * A condition that cannot be evaluated for a call, or yields no boolean, applies the limit.
     */
    String condition() default "";

    /**
     * SpEL over the same variables as {@link #key()} choosing the tier of this call, e.g. {@code "#user.plan"} or a
     * resolver bean {@code "@plans.tierOf(#tenant)"}: the call is decided under the policy of
     * {@code guard.rate-limit.instances.<name>.tiers.<tier>} (compared ignoring case, so an enum constant matches),
     * named {@code <name>.<tier>} in headers, metrics and Redis keys. The tiers must be configured; a call whose
     * tier is null or not configured takes {@code default-tier}, or fails (HTTP 500) when there is none.
     * Empty: the limit has one policy.
     */
    String tier() default "";

    /** Permits per interval; 0 = from configuration. */
    long rate() default 0;

    /** The interval as a duration ({@code "60s"}, {@code "500ms"}, {@code "PT1M"}); empty = from configuration. */
    String interval() default "";

    /** Algorithm name ({@code SLIDING_LOG}, {@code TOKEN_BUCKET}, {@code FIXED_WINDOW}); empty = from configuration. */
    String algorithm() default "";

    /**
     * Permits one call takes when admitted: SpEL over the parameters, or a number; empty = 1. With {@link #cost()},
     * the estimate taken at admission, which may be 0: the call is then admitted while the key is not in debt.
     */
    String permits() default "";

    /**
     * What the call consumed, known only once it returned (tokens of a language model, rows, bytes): SpEL over the
     * parameters, {@code #result} (the method's result; for a {@code CompletionStage}, a {@code Mono} or a Kotlin
     * suspend function, the value it completed with) and beans, e.g. {@code "#result.usage.totalTokens"}. After the
     * call, {@code cost - permits} is charged to the key (given back when negative), atomically, whatever is left:
     * the balance may go into debt, and the following calls are refused until the refill has paid it back. Needs a
     * {@code TOKEN_BUCKET} limit without a lease; not for a {@code Flux} or {@code Flow}. Empty: no cost after the
     * call. See docs/cost.md.
     */
    String cost() default "";

    /**
     * What a call that threw is charged, with {@link #cost()}: {@code estimate} (the permits taken at admission stay
     * charged), {@code none} (they are given back), or SpEL over the parameters and {@code #exception}, e.g.
     * {@code "#exception.tokensUsed"}. Empty = {@code estimate}.
     */
    String costOnFailure() default "";

    /** {@code GLOBAL} or {@code PER_INSTANCE}; empty = from configuration. */
    String scope() default "";

    /** How long a call may wait for a permit ({@code "200ms"}); empty or zero = refuse at once. */
    String timeout() default "";

    /**
     * Leased decisions (TOKEN_BUCKET and FIXED_WINDOW on Redis): {@code "off"} (every decision asks Redis), a number
     * of permits each instance takes from the shared quota in one script and then spends locally, or {@code "auto"}
     * (sized from this instance's recent rate for the key and the quota left). What that changes, exactly, is in
     * docs/algorithms.md#leased-decisions. Empty = from configuration ({@code off} when nothing says).
     */
    String lease() default "";

    /** The {@code detail} of the 429 answer; empty = from configuration or a default naming the limit. */
    String message() default "";

    /**
     * A method of the same class called instead of refusing when this limit refuses: the method's parameters plus
     * an optional trailing parameter that accepts the refusal ({@code RateLimitExceededException} or a supertype),
     * or only that parameter, returning a type assignable to the method's. Resolved and checked at start-up like a
     * breaker's fallback. Empty: a refusal throws {@code RateLimitExceededException} (429 over HTTP).
     */
    String fallbackMethod() default "";
}
