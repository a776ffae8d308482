/**
 * Limits by URL pattern ({@code guard.rate-limit.routes}): a route's definition, its checked form, and
 * {@link io.guard.spring.routes.RouteLimits}, which decides the matching routes of a request the way {@code @RateLimit}
 * decides a call. The servlet filter and WebFilter that call it live with the other HTTP answers in
 * {@code io.guard.spring.web}.
 *
 * <p>Internal: configured through properties, not an API. Public types here are public only for Guard's
 * {@code autoconfigure} and {@code web} packages.
 */
package io.guard.spring.routes;
