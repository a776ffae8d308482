package io.guard.benchmarks.startup.app;

import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The one endpoint, protected as issue 27's HTTP comparison protects it. Without Guard on the class path the JVM
 * ignores the two annotations, so every variant runs this same class.
 */
@RestController
class ItemsController {

    @GetMapping("/items/{id}")
    @RateLimit(name = "items", key = "#user", rate = 1000, interval = "1s")
    @CircuitBreaker(name = "items")
    String item(@PathVariable long id, @RequestParam String user) {
        return "{\"id\":" + id + "}";
    }
}
