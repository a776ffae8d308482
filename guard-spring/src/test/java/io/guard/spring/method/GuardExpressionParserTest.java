package io.guard.spring.method;

import org.junit.jupiter.api.Test;
import org.springframework.expression.Expression;

import java.lang.reflect.Method;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GuardExpressionParserTest {

    private final GuardExpressionParser parser = new GuardExpressionParser(name -> name.equals("tenants"));

    static class OrderController {
        public String submit(long userId, String region) {
            return region;
        }
    }

    private static AnnotationSite site() throws NoSuchMethodException {
        Method method = OrderController.class.getMethod("submit", long.class, String.class);
        return new AnnotationSite("RateLimit", OrderController.class, method);
    }

    @Test
    void acceptsParameterNamesIndexesRootAndKnownBeans() throws Exception {
        for (String text : new String[] {"#userId", "#p0 + ':' + #a1", "#root.methodName + #region",
                "@tenants.toString() + #userId"}) {
            Expression expression = parser.parse(site(), "key", text, Set.of());
            assertThat(expression.getExpressionString()).isEqualTo(text);
        }
    }

    @Test
    void namesTheMethodTheValueAndTheParametersWhenAVariableIsNoParameter() {
        assertThatThrownBy(() -> parser.parse(site(), "key", "#usrId", Set.of()))
                .isInstanceOf(GuardAnnotationException.class)
                .hasMessage("@RateLimit on OrderController.submit(long, String): key '#usrId' refers to no parameter"
                        + " (#usrId); parameters are [userId, region]");
    }

    @Test
    void rejectsAnIndexBeyondTheParameters() {
        assertThatThrownBy(() -> parser.parse(site(), "key", "#p2", Set.of()))
                .hasMessageContaining("refers to no parameter (#p2)");
    }

    @Test
    void reportsUnparseableSpel() {
        assertThatThrownBy(() -> parser.parse(site(), "permits", "#userId +", Set.of()))
                .isInstanceOf(GuardAnnotationException.class)
                .hasMessageStartingWith("@RateLimit on OrderController.submit(long, String): permits '#userId +'"
                        + " is not valid SpEL");
    }

    @Test
    void reportsMissingBeans() {
        assertThatThrownBy(() -> parser.parse(site(), "key", "@tennants.get(#userId)", Set.of()))
                .hasMessageContaining("refers to no bean (@tennants)");
    }

    @Test
    void allowsExtraVariablesOnlyWhereGranted() throws Exception {
        assertThat(parser.parse(site(), "recordResult", "#result == null", Set.of("result"))).isNotNull();
        assertThatThrownBy(() -> parser.parse(site(), "key", "#result", Set.of()))
                .hasMessageContaining("refers to no parameter (#result)");
    }
}
