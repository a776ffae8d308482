package io.guard.kotlin.mistakes

import io.guard.spring.annotation.CircuitBreaker
import io.guard.spring.method.GuardAnnotationException
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.springframework.boot.WebApplicationType
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.context.annotation.Import

/** A Kotlin fallback that fits nothing stops start-up with signatures a Kotlin developer can write. */
class SuspendFallbackMistakesTest {

    @Test
    fun `a suspend function's misfit fallback is reported in Kotlin`() {
        val failure = assertThrows<Exception> { start(Misfit::class.java) }
        val mistake = generateSequence(failure as Throwable) { it.cause }
            .filterIsInstance<GuardAnnotationException>().first()

        assertThat(mistake.element()).isEqualTo("@CircuitBreaker on Misfit.price(String)")
        assertThat(mistake.problem()).contains("has no overload that fits")
        assertThat(mistake.action())
            .contains("suspend fun priceLater(sku: String): String")
            .contains("suspend fun priceLater(sku: String, error: Throwable): String")
            .contains("or the same without suspend")
            .doesNotContain("Continuation")
    }

    @Test
    fun `a suspend fallback for a function that does not suspend is a misfit`() {
        val failure = assertThrows<Exception> { start(BlockingWithSuspendFallback::class.java) }
        val mistake = generateSequence(failure as Throwable) { it.cause }
            .filterIsInstance<GuardAnnotationException>().first()

        assertThat(mistake.element()).isEqualTo("@CircuitBreaker on BlockingWithSuspendFallback.price(String)")
        assertThat(mistake.problem()).contains("has no overload that fits")
    }

    private fun start(service: Class<*>) {
        SpringApplicationBuilder(MistakeApp::class.java, service)
            .web(WebApplicationType.NONE)
            .properties("guard.rate-limit.backend=local", "spring.main.banner-mode=off")
            .run()
            .close()
    }
}

@EnableAutoConfiguration
class MistakeApp

/** Open, as the kotlin-spring plugin makes a Spring bean class (these are plain classes named as sources). */
open class Misfit {
    @CircuitBreaker(name = "misfit", fallbackMethod = "priceLater")
    open suspend fun price(sku: String): String = "price:$sku"

    suspend fun priceLater(sku: Int): String = "later:$sku"
}

open class BlockingWithSuspendFallback {
    @CircuitBreaker(name = "blocking", fallbackMethod = "priceLater")
    open fun price(sku: String): String = "price:$sku"

    suspend fun priceLater(sku: String): String = "later:$sku"
}
