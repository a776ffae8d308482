package io.guard.test.redis;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RedisUrlTest {

    @Test
    void readsHostPortAndPassword() {
        RedisUrl url = RedisUrl.parse("redis://:s%40cret@10.0.0.5:6390/2");

        assertThat(url.host()).isEqualTo("10.0.0.5");
        assertThat(url.port()).isEqualTo(6390);
        assertThat(url.password()).isEqualTo("s@cret");
    }

    @Test
    void defaultsToPort6379WithoutPassword() {
        RedisUrl url = RedisUrl.parse("redis://cache.internal");

        assertThat(url.port()).isEqualTo(6379);
        assertThat(url.password()).isNull();
    }

    @Test
    void rejectsOtherSchemesNamingTheVariable() {
        assertThatThrownBy(() -> RedisUrl.parse("http://localhost:6379"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("GUARD_REDIS_URL").hasMessageContaining("http://localhost:6379");
    }

    @Test
    void escapesGlobCharactersSoPrefixesMatchLiterally() {
        assertThat(Resp.escapeGlob("a*b?[c]\\")).isEqualTo("a\\*b\\?\\[c\\]\\\\");
    }
}
