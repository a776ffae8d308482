package io.guard.spring.method;

import java.util.List;
import java.util.stream.Collectors;

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
    private final List<GuardAnnotationException> all;

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
        this.all = List.of(this);
    }

    private GuardAnnotationException(List<GuardAnnotationException> all) {
        super(all.size() + " Guard annotations cannot work:" + all.stream().map(e -> "\n - " + e.getMessage())
                .collect(Collectors.joining()));
        GuardAnnotationException first = all.get(0);
        this.element = first.element;
        this.attribute = first.attribute;
        this.value = first.value;
        this.problem = first.problem;
        this.action = all.stream().map(e -> e.element + ": " + e.action).distinct()
                .collect(Collectors.joining("\n"));
        this.all = List.copyOf(all);
    }

    /**
     * Every problem found at start-up in one exception, so one restart shows them all: the single problem itself,
     * or one whose message lists each (the element, attribute and value accessors then describe the first).
     */
    public static GuardAnnotationException of(List<GuardAnnotationException> problems) {
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("no problems");
        }
        return problems.size() == 1 ? problems.get(0) : new GuardAnnotationException(problems);
    }

    /** Each problem this exception reports (itself alone, unless it gathers several). */
    public List<GuardAnnotationException> problems() {
        return all;
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
