package io.guard.kotlin

import io.guard.breaker.CircuitBreakerRegistry
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.beans.factory.annotation.Value
import org.springframework.boot.test.context.SpringBootTest
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse

/** The same suspend controller on Spring MVC and on WebFlux: 429 beyond the limit, the fallback when it fails. */
abstract class SuspendControllersTest(private val port: Int, private val breakers: CircuitBreakerRegistry) {

    private val http = HttpClient.newHttpClient()

    private fun get(path: String): HttpResponse<String> = http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:$port$path")).build(),
        HttpResponse.BodyHandlers.ofString())

    @Test
    fun `a suspend handler answers 429 beyond its limit`() {
        assertThat(get("/stock/a").statusCode()).isEqualTo(200)
        val second = get("/stock/a")
        assertThat(second.statusCode()).isEqualTo(200)
        assertThat(second.body()).isEqualTo("stock:a")
        assertThat(second.headers().firstValue("RateLimit")).hasValue("\"stock-api\";r=0;t=60")

        val refused = get("/stock/a")
        assertThat(refused.statusCode()).isEqualTo(429)
        assertThat(refused.headers().firstValue("Retry-After")).isPresent()
        assertThat(get("/stock/b").statusCode()).isEqualTo(200)
    }

    @Test
    fun `a failing suspend handler is answered by its suspend fallback and recorded`() {
        val answer = get("/labels/x")

        assertThat(answer.statusCode()).isEqualTo(200)
        assertThat(answer.body()).isEqualTo("label-later:x")
        assertThat(breakers.circuitBreaker("labels-api").snapshot().failedCalls()).isEqualTo(1)
    }
}

@SpringBootTest(classes = [KotlinApp::class], webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class MvcSuspendControllersTest(@Value("\${local.server.port}") port: Int, @Autowired breakers: CircuitBreakerRegistry) :
    SuspendControllersTest(port, breakers)

@SpringBootTest(classes = [KotlinApp::class], webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = ["spring.main.web-application-type=reactive"])
class WebFluxSuspendControllersTest(@Value("\${local.server.port}") port: Int,
                                    @Autowired breakers: CircuitBreakerRegistry) :
    SuspendControllersTest(port, breakers)
