package io.guard.kotlin

import io.guard.spring.annotation.CircuitBreaker
import io.guard.spring.annotation.RateLimit
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.flowOf
import org.springframework.boot.autoconfigure.SpringBootApplication
import org.springframework.stereotype.Service
import java.io.IOException
import java.util.concurrent.atomic.AtomicInteger
import kotlin.coroutines.AbstractCoroutineContextElement
import kotlin.coroutines.CoroutineContext
import kotlin.coroutines.coroutineContext

/** An application as a Kotlin developer writes it: suspend functions and Flows behind Guard's annotations. */
@SpringBootApplication
class KotlinApp

/** A coroutine context element the way MDC, tracing and security contexts travel with a coroutine. */
class Marker(val value: String) : AbstractCoroutineContextElement(Key) {
    companion object Key : CoroutineContext.Key<Marker>
}

@Service
class Inventory {

    val stockCalls = AtomicInteger()

    @CircuitBreaker(name = "stock")
    suspend fun stock(sku: String): Int {
        delay(1)
        stockCalls.incrementAndGet()
        throw IOException("stock of $sku unknown")
    }

    @CircuitBreaker(name = "price", fallbackMethod = "priceLater")
    suspend fun price(sku: String): String {
        delay(1)
        throw IOException("prices down")
    }

    suspend fun priceLater(sku: String, error: IOException): String {
        delay(1)
        return "later:$sku:${error.message}:${coroutineContext[Marker]?.value}"
    }

    @CircuitBreaker(name = "label", fallbackMethod = "plainLabel")
    suspend fun label(sku: String): String {
        delay(1)
        throw IOException("labels down")
    }

    fun plainLabel(sku: String, error: Throwable): String = "plain:$sku"

    @CircuitBreaker(name = "slow")
    suspend fun slow(): String {
        delay(30_000)
        return "late"
    }

    @CircuitBreaker(name = "single", maxConcurrentCalls = 1)
    suspend fun hold(entered: CompletableDeferred<Unit>, gate: CompletableDeferred<Unit>): String {
        entered.complete(Unit)
        gate.await()
        return "released"
    }

    @CircuitBreaker(name = "context")
    suspend fun marker(): String? {
        delay(1)
        return coroutineContext[Marker]?.value
    }

    @RateLimit(name = "lookups", rate = 2, interval = "60s")
    suspend fun lookup(id: String): String {
        delay(1)
        return "found:$id"
    }

    @RateLimit(name = "quotes", rate = 1, interval = "60s", fallbackMethod = "quoteLater")
    suspend fun quote(id: String): String {
        delay(1)
        return "quote:$id"
    }

    suspend fun quoteLater(id: String, refusal: io.guard.spring.ratelimit.RateLimitExceededException): String {
        delay(1)
        return "quote-later:$id"
    }

    @CircuitBreaker(name = "feed")
    fun feed(fail: Boolean): Flow<Int> = flow {
        emit(1)
        if (fail) {
            throw IOException("feed down")
        }
        emit(2)
    }

    @CircuitBreaker(name = "feed")
    fun endless(): Flow<Int> = flow {
        var next = 0
        while (true) {
            emit(next++)
        }
    }

    @CircuitBreaker(name = "news", fallbackMethod = "oldNews")
    fun news(): Flow<String> = flow {
        throw IOException("news down")
    }

    fun oldNews(error: IOException): Flow<String> = flowOf("old")

    @RateLimit(name = "ticks", rate = 1, interval = "60s")
    fun ticks(): Flow<Int> = flowOf(1, 2, 3)

    @CircuitBreaker(name = "pages")
    suspend fun pages(fail: Boolean): Flow<Int> {
        delay(1)
        return flow {
            emit(1)
            if (fail) {
                throw IOException("pages down")
            }
        }
    }
}
