package io.guard.spring.autoconfigure.report;

/**
 * A Guard property (or the lack of a bean it needs) that cannot work: a breaker setting out of range, a Redis
 * backend without a Redis client. Thrown at start-up; its failure analyzer names the property and the value.
 * Public for guard-spring-cloud-gateway's start-up check of routes; not an API for applications.
 */
public class GuardPropertiesException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String property;
    private final String action;

    /**
     * @param property the property (or property prefix) at fault, e.g. {@code guard.circuit-breaker.instances.payment}
     * @param problem  what is wrong, naming the value
     * @param action   what to do about it
     */
    public GuardPropertiesException(String property, String problem, String action) {
        super(property + ": " + problem);
        this.property = property;
        this.action = action;
    }

    /** The property or prefix at fault. */
    public String property() {
        return property;
    }

    /** What the developer can do about it. */
    public String action() {
        return action;
    }
}
