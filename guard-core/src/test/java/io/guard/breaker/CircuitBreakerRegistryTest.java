package io.guard.breaker;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CircuitBreakerRegistryTest {

    private final CircuitBreakerConfig defaults = CircuitBreakerConfig.builder().slidingWindowSize(7).build();
    private final CircuitBreakerConfig payments = CircuitBreakerConfig.builder().slidingWindowSize(3).build();

    @Test
    void createsOnceWithInstanceConfigOrDefaults() {
        CircuitBreakerRegistry registry = CircuitBreakerRegistry.builder().defaults(defaults)
                .instances(Map.of("payments", payments)).build();
        CircuitBreaker p = registry.circuitBreaker("payments");
        assertThat(registry.circuitBreaker("payments")).isSameAs(p);
        assertThat(p.config()).isEqualTo(payments);
        assertThat(registry.circuitBreaker("stock").config()).isEqualTo(defaults);
        assertThat(registry.all()).extracting(CircuitBreaker::name).containsExactlyInAnyOrder("payments", "stock");
    }

    @Test
    void findNeverCreates() {
        CircuitBreakerRegistry registry = CircuitBreakerRegistry.ofDefaults();
        assertThat(registry.find("x")).isEmpty();
        assertThat(registry.all()).isEmpty();
        CircuitBreaker x = registry.circuitBreaker("x");
        assertThat(registry.find("x")).containsSame(x);
    }

    @Test
    void refusesToCreateBeyondTheBoundAndNamesIt() {
        CircuitBreakerRegistry registry = CircuitBreakerRegistry.builder().maxBreakers(2).build();
        registry.circuitBreaker("a");
        registry.circuitBreaker("b");
        assertThat(registry.circuitBreaker("a")).isNotNull();
        assertThatThrownBy(() -> registry.circuitBreaker("user-42"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'user-42'").hasMessageContaining("max-breakers=2");
        assertThat(registry.all()).hasSize(2);
    }

    @Test
    void registryListenerSeesExistingAndLaterBreakersOnce() {
        CircuitBreakerRegistry registry = CircuitBreakerRegistry.ofDefaults();
        registry.circuitBreaker("early");
        List<String> seen = new ArrayList<>();
        registry.addRegistryListener(b -> seen.add(b.name()));
        registry.circuitBreaker("late");
        registry.circuitBreaker("late");
        registry.circuitBreaker("early");
        assertThat(seen).containsExactly("early", "late");
    }

    @Test
    void rejectsBadBuilderValuesAndNames() {
        assertThatThrownBy(() -> CircuitBreakerRegistry.builder().maxBreakers(0))
                .hasMessage("max-breakers must be at least 1 but was 0");
        assertThatThrownBy(() -> CircuitBreakerRegistry.builder().eventBufferSize(0))
                .hasMessage("event-buffer-size must be at least 1 but was 0");
        assertThatThrownBy(() -> CircuitBreakerRegistry.ofDefaults().circuitBreaker(" "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("name must not be blank");
    }
}
