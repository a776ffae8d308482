package io.guard.spring.aop;

/**
 * A Guard annotation that cannot work as written: a SpEL expression that does not parse or names no parameter, a
 * fallback that does not exist or does not fit, an invalid duration or algorithm, more permits than the rate.
 *
 * <p>Thrown while the application starts, so that a typo stops start-up with a message naming the class, method,
 * attribute and value, rather than failing the first request in production.
 */
public class GuardAnnotationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String element;
    private final String attribute;
    private final String value;
    private final String problem;
    private final String action;

    /**
     * @param element   the annotation and where it sits: {@code @RateLimit on OrderController.submit(long)}
     * @param attribute the annotation attribute at fault: {@code key}
     * @param value     the attribute's value: {@code #usrId}
     * @param problem   what is wrong: {@code refers to no parameter; parameters are [userId]}
     * @param action    what to do about it, for the failure analyzer
     */
    public GuardAnnotationException(String element, String attribute, String value, String problem, String action) {
        super(element + ": " + attribute + " '" + value + "' " + problem);
        this.element = element;
        this.attribute = attribute;
        this.value = value;
        this.problem = problem;
        this.action = action;
    }

    /** The annotation and the method or class it sits on. */
    public String element() {
        return element;
    }

    /** The annotation attribute at fault. */
    public String attribute() {
        return attribute;
    }

    /** The attribute's value as written. */
    public String value() {
        return value;
    }

    /** What is wrong with the value. */
    public String problem() {
        return problem;
    }

    /** What the developer can do about it. */
    public String action() {
        return action;
    }
}
