package io.guard.spring.method;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which keys a call reads straight from its arguments, without building a SpEL context: exactly those that are one
 * parameter, where the argument is certainly what SpEL would find.
 */
class ParameterOnlyKeyTest {

    private final GuardExpressionParser parser = new GuardExpressionParser(name -> true);

    static class Orders {
        public String submit(long userId, String region) {
            return region;
        }

        public String tagged(String... tags) {
            return tags[0];
        }

        public String indexLike(String p1, String user) {
            return user;
        }
    }

    private int parameterOnly(String methodName, String key, Class<?>... types) throws NoSuchMethodException {
        Method method = Orders.class.getMethod(methodName, types);
        AnnotationSite site = new AnnotationSite("RateLimit", Orders.class, method);
        return parser.parameterOnly(parser.parse(site, "key", key, Set.of("clientIp")), method);
    }

    @Test
    void aKeyThatIsOneParameterByNameOrIndexIsReadFromTheArguments() throws Exception {
        assertThat(parameterOnly("submit", "#userId", long.class, String.class)).isEqualTo(0);
        assertThat(parameterOnly("submit", "#region", long.class, String.class)).isEqualTo(1);
        assertThat(parameterOnly("submit", "#p1", long.class, String.class)).isEqualTo(1);
        assertThat(parameterOnly("submit", "#a0", long.class, String.class)).isEqualTo(0);
    }

    @Test
    void everyOtherKeyIsLeftToSpel() throws Exception {
        assertThat(parameterOnly("submit", "#region.toUpperCase()", long.class, String.class)).isEqualTo(-1);
        assertThat(parameterOnly("submit", "#userId + ':' + #region", long.class, String.class)).isEqualTo(-1);
        assertThat(parameterOnly("submit", "#root.methodName", long.class, String.class)).isEqualTo(-1);
        assertThat(parameterOnly("submit", "#clientIp", long.class, String.class)).isEqualTo(-1);
        assertThat(parameterOnly("submit", "'constant'", long.class, String.class)).isEqualTo(-1);
        assertThat(parser.parameterOnly(null, Orders.class.getMethod("submit", long.class, String.class)))
                .isEqualTo(-1);
    }

    @Test
    void varargsAndParametersNamedLikeIndexesAreLeftToSpel() throws Exception {
        // SpEL adapts a varargs array, and a parameter named p1 shadows (or is shadowed by) another's index.
        assertThat(parameterOnly("tagged", "#tags", String[].class)).isEqualTo(-1);
        assertThat(parameterOnly("indexLike", "#user", String.class, String.class)).isEqualTo(-1);
        assertThat(parameterOnly("indexLike", "#p1", String.class, String.class)).isEqualTo(-1);
    }
}
