package io.guard.kotlin

import io.guard.spring.ratelimit.RateLimitExceededException
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.test.context.SpringBootTest

/** {@code @RateLimit} on suspend functions: decided without blocking the coroutine's thread, refusals as exceptions. */
@SpringBootTest(classes = [KotlinApp::class], webEnvironment = SpringBootTest.WebEnvironment.NONE)
class SuspendRateLimitTest(@Autowired val inventory: Inventory) {

    @Test
    fun `a suspend function is refused beyond its rate`(): Unit = runBlocking {
        assertThat(inventory.lookup("a")).isEqualTo("found:a")
        assertThat(inventory.lookup("b")).isEqualTo("found:b")

        val refusal = assertThrows<RateLimitExceededException> { inventory.lookup("c") }
        assertThat(refusal.decision().allowed()).isFalse()
    }

    @Test
    fun `a suspend fallback answers a refusal`(): Unit = runBlocking {
        assertThat(inventory.quote("x")).isEqualTo("quote:x")
        assertThat(inventory.quote("y")).isEqualTo("quote-later:y")
    }
}
