package io.guard.sample.chaos;

import jakarta.validation.Valid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** Lets a person (or a load test) make the inventory downstream fail or slow down, to watch the breaker react. */
@RestController
@RequestMapping("/chaos/inventory")
class ChaosController {

    private static final Logger log = LoggerFactory.getLogger(ChaosController.class);

    private final Chaos chaos;

    ChaosController(Chaos chaos) {
        this.chaos = chaos;
    }

    @GetMapping
    ChaosSettings current() {
        return chaos.current();
    }

    @PutMapping
    ChaosSettings replace(@Valid @RequestBody ChaosSettings settings) {
        log.info("Inventory downstream chaos: failureRate={}, latencyMs={}", settings.failureRate(),
                settings.latencyMs());
        return chaos.replace(settings);
    }
}
