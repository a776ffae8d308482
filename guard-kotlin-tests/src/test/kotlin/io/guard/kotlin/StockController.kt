package io.guard.kotlin

import io.guard.spring.annotation.CircuitBreaker
import io.guard.spring.annotation.RateLimit
import kotlinx.coroutines.delay
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PathVariable
import org.springframework.web.bind.annotation.RestController
import java.io.IOException

/** Suspend handler methods, which Spring MVC and WebFlux both call as coroutines. */
@RestController
class StockController {

    @GetMapping("/stock/{sku}")
    @RateLimit(name = "stock-api", rate = 2, interval = "60s", key = "#sku")
    suspend fun stock(@PathVariable sku: String): String {
        delay(1)
        return "stock:$sku"
    }

    @GetMapping("/labels/{sku}")
    @CircuitBreaker(name = "labels-api", fallbackMethod = "labelLater")
    suspend fun label(@PathVariable sku: String): String {
        delay(1)
        throw IOException("labels down")
    }

    suspend fun labelLater(sku: String, error: IOException): String {
        delay(1)
        return "label-later:$sku"
    }
}
