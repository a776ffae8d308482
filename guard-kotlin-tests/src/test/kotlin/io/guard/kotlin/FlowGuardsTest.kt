package io.guard.kotlin

import io.guard.breaker.CallNotPermittedException
import io.guard.breaker.CircuitBreakerRegistry
import io.guard.breaker.State
import io.guard.spring.ratelimit.RateLimitExceededException
import kotlinx.coroutines.flow.take
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.test.context.SpringBootTest
import java.io.IOException

/** Functions returning a {@code Flow}: guarded per collection, as a Flux is per subscription. */
@SpringBootTest(classes = [KotlinApp::class], webEnvironment = SpringBootTest.WebEnvironment.NONE)
class FlowGuardsTest(@Autowired val inventory: Inventory, @Autowired val breakers: CircuitBreakerRegistry) {

    @Test
    fun `a failing flow opens its breaker, and one taken partly is a success`(): Unit = runBlocking {
        assertThat(inventory.feed(false).toList()).containsExactly(1, 2)
        assertThat(inventory.endless().take(3).toList()).containsExactly(0, 1, 2)
        repeat(2) {
            assertThrows<IOException> { inventory.feed(true).toList() }
        }
        val breaker = breakers.circuitBreaker("feed")
        assertThat(breaker.snapshot().calls()).isEqualTo(4)
        assertThat(breaker.snapshot().failedCalls()).isEqualTo(2)
        assertThat(breaker.state()).isEqualTo(State.OPEN)

        assertThrows<CallNotPermittedException> { inventory.feed(false).toList() }
    }

    @Test
    fun `a flow fallback answers a failed flow`(): Unit = runBlocking {
        assertThat(inventory.news().toList()).containsExactly("old")
    }

    @Test
    fun `a limited flow is refused when collected beyond its rate`(): Unit = runBlocking {
        val ticks = inventory.ticks()
        assertThat(ticks.toList()).containsExactly(1, 2, 3)
        assertThrows<RateLimitExceededException> { ticks.toList() }
    }

    @Test
    fun `a suspend function returning a flow records the flow's outcome`(): Unit = runBlocking {
        assertThrows<IOException> { inventory.pages(true).toList() }
        assertThat(inventory.pages(false).toList()).containsExactly(1)

        val breaker = breakers.circuitBreaker("pages")
        assertThat(breaker.snapshot().calls()).isEqualTo(2)
        assertThat(breaker.snapshot().failedCalls()).isEqualTo(1)
    }
}
