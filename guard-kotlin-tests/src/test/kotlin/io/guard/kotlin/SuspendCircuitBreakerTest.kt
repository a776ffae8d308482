package io.guard.kotlin

import io.guard.breaker.CallNotPermittedException
import io.guard.breaker.CircuitBreakerRegistry
import io.guard.breaker.State
import io.guard.bulkhead.BulkheadFullException
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.test.context.SpringBootTest
import java.io.IOException
import java.util.concurrent.TimeoutException

/** {@code @CircuitBreaker} on suspend functions records what the coroutine did, not what {@code proceed()} returned. */
@SpringBootTest(classes = [KotlinApp::class], webEnvironment = SpringBootTest.WebEnvironment.NONE)
class SuspendCircuitBreakerTest(@Autowired val inventory: Inventory, @Autowired val breakers: CircuitBreakerRegistry) {

    @Test
    fun `failures of a suspend function open its breaker`(): Unit = runBlocking {
        repeat(4) {
            assertThrows<IOException> { inventory.stock("sku-$it") }
        }
        val breaker = breakers.circuitBreaker("stock")
        assertThat(breaker.snapshot().failedCalls()).isEqualTo(4)
        assertThat(breaker.state()).isEqualTo(State.OPEN)

        assertThrows<CallNotPermittedException> { inventory.stock("sku-4") }
        assertThat(inventory.stockCalls.get()).isEqualTo(4)
    }

    @Test
    fun `a suspend fallback answers with the call's arguments, the error and its coroutine context`(): Unit = runBlocking {
        val answer = withContext(Marker("request-7")) { inventory.price("sku-1") }

        assertThat(answer).isEqualTo("later:sku-1:prices down:request-7")
        assertThat(breakers.circuitBreaker("price").snapshot().failedCalls()).isEqualTo(1)
    }

    @Test
    fun `a fallback that does not suspend answers a suspend function`(): Unit = runBlocking {
        assertThat(inventory.label("sku-2")).isEqualTo("plain:sku-2")
    }

    @Test
    fun `the coroutine context reaches the guarded body`(): Unit = runBlocking {
        assertThat(withContext(Marker("trace-42")) { inventory.marker() }).isEqualTo("trace-42")
        assertThat(breakers.circuitBreaker("context").snapshot().calls()).isEqualTo(1)
    }

    @Test
    fun `a breaker timeout ends a suspend call and counts as a failure`(): Unit = runBlocking {
        val error = assertThrows<TimeoutException> { withTimeout(10_000) { inventory.slow() } }

        assertThat(error).isNotNull()
        assertThat(breakers.circuitBreaker("slow").snapshot().failedCalls()).isEqualTo(1)
    }

    @Test
    fun `a cancelled call gives its bulkhead permit back`(): Unit = runBlocking {
        val entered = CompletableDeferred<Unit>()
        val first = async(Dispatchers.Default) { inventory.hold(entered, CompletableDeferred()) }
        withTimeout(10_000) { entered.await() }

        assertThrows<BulkheadFullException> { inventory.hold(CompletableDeferred(), CompletableDeferred(Unit)) }

        first.cancelAndJoin()
        assertThat(inventory.hold(CompletableDeferred(), CompletableDeferred(Unit))).isEqualTo("released")
        assertThat(breakers.circuitBreaker("single").snapshot().failedCalls()).isZero()
    }
}
