package io.guard.kotlin

import io.guard.spring.annotation.RateLimit
import io.guard.spring.ratelimit.RateLimitExceededException
import io.guard.spring.ratelimit.RateLimitQuotas
import kotlinx.coroutines.delay
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.stereotype.Service

/** What a language model answered and the tokens it took. */
data class Completion(val text: String, val tokens: Long)

/** A token budget on a suspend function: the cost is the value the coroutine returned. */
@Service
class Completions {

    @RateLimit(name = "completion-tokens", key = "#tenant", rate = 60, interval = "60s",
            algorithm = "TOKEN_BUCKET", cost = "#result.tokens")
    suspend fun complete(tenant: String, tokens: Long): Completion {
        delay(1)
        return Completion("ok", tokens)
    }

    @RateLimit(name = "failed-completion-tokens", key = "#tenant", rate = 60, interval = "60s",
            algorithm = "TOKEN_BUCKET", permits = "10", cost = "#result.tokens", costOnFailure = "none")
    suspend fun fail(tenant: String): Completion {
        delay(1)
        throw IllegalStateException("model down")
    }
}

/** {@code @RateLimit(cost = ...)} on suspend functions: charged with the coroutine's value, or as costOnFailure says. */
@SpringBootTest(classes = [KotlinApp::class], webEnvironment = SpringBootTest.WebEnvironment.NONE)
class SuspendCostTest(@Autowired val completions: Completions, @Autowired val quotas: RateLimitQuotas) {

    @Test
    fun `a suspend function is charged what its value says and its debt refuses the next call`(): Unit = runBlocking {
        assertThat(completions.complete("acme", 70).tokens).isEqualTo(70)

        assertThat(quotas.inspect("completion-tokens", "acme").debt()).isEqualTo(10)
        assertThrows<RateLimitExceededException> { completions.complete("acme", 1) }
    }

    @Test
    fun `a suspend function that threw is charged as costOnFailure says`(): Unit = runBlocking {
        assertThrows<IllegalStateException> { completions.fail("acme") }

        assertThat(quotas.inspect("failed-completion-tokens", "acme").remaining()).isEqualTo(60)
    }
}
