package io.guard.spring.method;

import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.Expression;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.ast.BeanReference;
import org.springframework.expression.spel.ast.FunctionReference;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Parses the SpEL of Guard annotations once, at start-up, and checks every {@code #name} against the method's
 * parameters and every {@code @bean} against the bean factory, so that a typo stops the application instead of
 * failing the first request.
 *
 * <p>Allowed variables: parameter names (when compiled with {@code -parameters}), {@code #p0}/{@code #a0} style
 * indexes, {@code #root}, {@code #this}, and the extras a caller allows ({@code #result} for {@code recordResult},
 * the web request's variables for {@code @RateLimit}).
 *
 * <p>Internal: public only because Guard's {@code routes} package uses it; not an API.
 */
public final class GuardExpressionParser {

    /** The index variables every parameter gets: {@code #p0}, {@code #a0}. */
    private static final Pattern INDEX = Pattern.compile("[ap][0-9]+");

    private final SpelExpressionParser parser =
            new SpelExpressionParser(new SpelParserConfiguration(SpelCompilerMode.MIXED, null));
    private final ParameterNameDiscoverer parameterNames;
    private final Predicate<String> beanExists;

    /**
     * @param parameterNames how parameter names are discovered (the same discoverer evaluates them)
     * @param beanExists     whether a bean of that name exists; {@code @bean} references are checked against it
     */
    GuardExpressionParser(ParameterNameDiscoverer parameterNames, Predicate<String> beanExists) {
        this.parameterNames = parameterNames;
        this.beanExists = beanExists;
    }

    public GuardExpressionParser(Predicate<String> beanExists) {
        this(new DefaultParameterNameDiscoverer(), beanExists);
    }

    ParameterNameDiscoverer parameterNames() {
        return parameterNames;
    }

    /**
     * Parses {@code text}; throws a {@link GuardAnnotationException} naming the site if it is not usable there. A
     * site without a method (a limit declared in configuration) allows {@code #root}, {@code #this} and the extras.
     */
    public Expression parse(AnnotationSite site, String attribute, String text, Set<String> extraVariables) {
        SpelExpression expression;
        try {
            expression = (SpelExpression) parser.parseExpression(text);
        } catch (ParseException e) {
            throw site.error(attribute, text, "is not valid SpEL: " + e.getSimpleMessage(),
                    "Fix the expression; parameters are referenced as #name or #p0.");
        }
        Set<String> allowed = allowedVariables(site.method(), extraVariables);
        List<String> unknown = new ArrayList<>();
        List<String> missingBeans = new ArrayList<>();
        visit(expression.getAST(), allowed, unknown, missingBeans);
        if (!unknown.isEmpty() && site.method() == null) {
            throw site.error(attribute, text, "refers to an unknown variable (" + String.join(", ", unknown)
                    + "); variables are " + extraVariables.stream().map(name -> "#" + name).sorted().toList(),
                    "Use one of those variables, or #root.");
        }
        if (!unknown.isEmpty()) {
            String extras = extraVariables.stream().sorted().map(name -> "#" + name).collect(Collectors.joining(", "));
            throw site.error(attribute, text, "refers to no parameter (" + String.join(", ", unknown)
                    + "); parameters are " + describeParameters(site.method()),
                    "Use one of the parameter names, #p0 style indexes, " + (extras.isEmpty() ? "or #root."
                            : "#root, or " + extras + "."));
        }
        if (!missingBeans.isEmpty()) {
            throw site.error(attribute, text, "refers to no bean (" + String.join(", ", missingBeans) + ")",
                    "Define the bean or fix its name.");
        }
        return expression;
    }

    private void visit(SpelNode node, Set<String> allowed, List<String> unknown, List<String> missingBeans) {
        if (node instanceof VariableReference || node instanceof FunctionReference) {
            String name = variableName(node.toStringAST());
            if (!allowed.contains(name)) {
                unknown.add("#" + name);
            }
        } else if (node instanceof BeanReference bean && beanExists != null && !bean.getName().startsWith("&")
                && !beanExists.test(bean.getName())) {
            missingBeans.add("@" + bean.getName());
        }
        for (int i = 0; i < node.getChildCount(); i++) {
            visit(node.getChild(i), allowed, unknown, missingBeans);
        }
    }

    /**
     * The index of the parameter {@code expression} reads when it reads nothing else ({@code #userId}, {@code #p0}),
     * so that a call can take the argument itself instead of building an evaluation context; -1 when SpEL must
     * evaluate it. Only where the argument is certainly what SpEL would find: no varargs, no {@code #root} or
     * {@code #this}, and no parameter named like an index ({@code p1}), which would shadow another parameter.
     */
    int parameterOnly(Expression expression, Method method) {
        if (!(expression instanceof SpelExpression spel) || !(spel.getAST() instanceof VariableReference variable)
                || variable.getChildCount() > 0 || method == null || method.isVarArgs()) {
            return -1;
        }
        String name = variableName(variable.toStringAST());
        String[] names = parameterNames.getParameterNames(method);
        if (names != null) {
            for (String each : names) {
                if (each == null || INDEX.matcher(each).matches()) {
                    return -1;
                }
            }
        }
        if (INDEX.matcher(name).matches()) {
            int index = Integer.parseInt(name.substring(1));
            return index < method.getParameterCount() ? index : -1;
        }
        if (names == null || name.equals("root") || name.equals("this")) {
            return -1;
        }
        return List.of(names).indexOf(name);
    }

    /** Whether {@code expression} (one this parser made, or null) reads the variable {@code #name}. */
    static boolean references(Expression expression, String name) {
        return expression instanceof SpelExpression spel && references(spel.getAST(), name);
    }

    private static boolean references(SpelNode node, String name) {
        if (node instanceof VariableReference && variableName(node.toStringAST()).equals(name)) {
            return true;
        }
        for (int i = 0; i < node.getChildCount(); i++) {
            if (references(node.getChild(i), name)) {
                return true;
            }
        }
        return false;
    }

    /** {@code #userId} or {@code #fn(a, b)} to {@code userId} / {@code fn}. */
    private static String variableName(String ast) {
        int end = ast.indexOf('(');
        return ast.substring(1, end < 0 ? ast.length() : end);
    }

    private Set<String> allowedVariables(Method method, Set<String> extraVariables) {
        Set<String> allowed = new LinkedHashSet<>(extraVariables);
        allowed.add("root");
        allowed.add("this");
        if (method == null) {
            return allowed;
        }
        for (int i = 0; i < method.getParameterCount(); i++) {
            allowed.add("p" + i);
            allowed.add("a" + i);
        }
        String[] names = parameterNames.getParameterNames(method);
        if (names != null) {
            allowed.addAll(List.of(names));
        }
        return allowed;
    }

    private String describeParameters(Method method) {
        String[] names = parameterNames.getParameterNames(method);
        if (names == null) {
            return "unnamed (compile with -parameters, or use #p0..#p" + (method.getParameterCount() - 1) + ")";
        }
        return List.of(names).toString();
    }
}
