package io.guard.spring.method;

import io.guard.spring.request.ServletCurrentRequest;
import org.junit.jupiter.api.Test;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.mock.web.MockHttpServletRequest;

import java.lang.reflect.Method;
import java.security.Principal;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The request variables are read from the request only when an expression uses them, and a parameter wins. */
class CallEvaluationContextTest {

    private final SpelExpressionParser parser = new SpelExpressionParser();

    /** A request that notes what is read from it. */
    static class WatchedRequest extends MockHttpServletRequest {
        final List<String> reads = new ArrayList<>();

        @Override
        public String getRemoteAddr() {
            reads.add("remoteAddr");
            return super.getRemoteAddr();
        }

        @Override
        public Principal getUserPrincipal() {
            reads.add("principal");
            return super.getUserPrincipal();
        }

        @Override
        public String getHeader(String name) {
            reads.add("header " + name);
            return super.getHeader(name);
        }
    }

    @SuppressWarnings("unused")
    public String handler(String region, String principal) {
        return "ok";
    }

    private Object evaluate(String expression, WatchedRequest request, Object... args) throws Exception {
        Method method = getClass().getMethod("handler", String.class, String.class);
        var root = new GuardExpressionRoot(method, args, this, getClass());
        var context = new CallEvaluationContext(root, method, args, new DefaultParameterNameDiscoverer(),
                request == null ? null : new ServletCurrentRequest(request));
        return parser.parseExpression(expression).getValue(context);
    }

    @Test
    void onlyWhatTheExpressionUsesIsRead() throws Exception {
        WatchedRequest request = new WatchedRequest();
        request.setRemoteAddr("203.0.113.7");
        request.addHeader("X-Api-Key", "k1");
        request.setUserPrincipal(() -> "ann");
        assertThat(evaluate("#clientIp", request, "eu", null)).isEqualTo("203.0.113.7");
        assertThat(request.reads).containsExactly("remoteAddr");
        request.reads.clear();
        assertThat(evaluate("#headers['x-api-key'] + ':' + #region", request, "eu", null)).isEqualTo("k1:eu");
        assertThat(request.reads).containsExactly("header x-api-key");
        request.reads.clear();
        assertThat(evaluate("#region", request, "eu", null)).isEqualTo("eu");
        assertThat(request.reads).isEmpty();
    }

    @Test
    void aParameterOfTheSameNameWinsEvenWhenNull() throws Exception {
        WatchedRequest request = new WatchedRequest();
        request.setUserPrincipal(() -> "ann");
        assertThat(evaluate("#principal", request, "eu", "ben")).isEqualTo("ben");
        assertThat(evaluate("#principal", request, "eu", null)).isNull();
        assertThat(request.reads).isEmpty();
    }

    @Test
    void outsideARequestTheVariablesAreNull() throws Exception {
        assertThat(evaluate("#clientIp", null, "eu", null)).isNull();
        assertThat(evaluate("#headers", null, "eu", null)).isNull();
    }
}
