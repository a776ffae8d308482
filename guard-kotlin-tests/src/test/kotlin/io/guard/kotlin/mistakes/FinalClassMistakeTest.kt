package io.guard.kotlin.mistakes

import io.guard.spring.annotation.RateLimit
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.junit.jupiter.api.extension.ExtendWith
import org.springframework.boot.WebApplicationType
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.boot.test.system.CapturedOutput
import org.springframework.boot.test.system.OutputCaptureExtension

/**
 * A Kotlin class is final unless the kotlin-spring plugin (or `open`) opens it; a Guard annotation on one stops
 * start-up, and the report says what to do in Kotlin's words instead of Spring's CGLIB message alone.
 */
@ExtendWith(OutputCaptureExtension::class)
class FinalClassMistakeTest {

    @Test
    fun `a final Kotlin class with guards names the kotlin-spring plugin`(output: CapturedOutput) {
        assertThrows<Exception> {
            SpringApplicationBuilder(MistakeApp::class.java, FinalStock::class.java)
                .web(WebApplicationType.NONE)
                .properties("guard.rate-limit.backend=local", "spring.main.banner-mode=off")
                .run()
                .close()
        }
        assertThat(output.toString())
            .contains("APPLICATION FAILED TO START")
            .contains("FinalStock carries Guard annotations")
            .contains("(Kotlin classes are final unless opened)")
            .contains("Apply the kotlin-spring compiler plugin")
    }
}

/** Final, as every Kotlin class is: no Spring stereotype here for the kotlin-spring plugin to open. */
class FinalStock {
    @RateLimit(name = "final-stock", rate = 5)
    fun count(): Int = 1
}
