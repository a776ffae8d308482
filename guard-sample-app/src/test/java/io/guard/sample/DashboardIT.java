package io.guard.sample;

import io.guard.breaker.CircuitBreakerRegistry;
import io.guard.bulkhead.Bulkhead;
import io.guard.bulkhead.BulkheadRegistry;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The dashboard in a real browser engine: WebKit in headless JavaFX ({@link HeadlessBrowser}, from Maven artifacts
 * alone) opens {@code /actuator/guarddashboard}, the downstream breaks through {@code PUT /chaos/inventory}, and the
 * page shows the {@code inventory} breaker turn OPEN, then HALF_OPEN, then CLOSED, from the live event stream.
 *
 * <p>A screenshot of the OPEN moment is written to {@code target/dashboard.png}; docs/dashboard.png is a copy.
 */
@SampleAppTest
class DashboardIT {

    static final Duration STEP = Duration.ofSeconds(20);
    static final String ROW = "#breakers tr[data-name='inventory']";

    @LocalServerPort
    int port;

    @Autowired
    CircuitBreakerRegistry breakers;

    @Autowired
    BulkheadRegistry bulkheads;

    Http http;
    HeadlessBrowser browser;

    @BeforeEach
    void healthyDownstreamAndABrowser() {
        http = new Http(port);
        heal();
        browser = HeadlessBrowser.open(1440, 900);
    }

    @AfterAll
    static void endJavaFx() {
        HeadlessBrowser.shutDown();
    }

    @AfterEach
    void closeBrowserAndHeal() {
        if (browser != null) {
            browser.close();
        }
        heal();
    }

    void heal() {
        assertThat(http.put("/chaos/inventory", ChaosIT.HEALTHY).status()).isEqualTo(200);
        breakers.circuitBreaker("inventory").reset();
    }

    @Test
    void showsTheInventoryBreakerOpenThenHalfOpenThenClosed() throws IOException {
        assertThat(http.get("/inventory/BOOK-1").status()).isEqualTo(200);
        browser.load("http://127.0.0.1:" + port + "/actuator/guarddashboard");
        assertThat(browser.title()).isEqualTo("Guard dashboard");
        awaitState("CLOSED");
        awaitText("#connection", "Live");

        // User 3001 places 7 orders against order-submit's 5 a minute: the limit's row shows the refusals.
        for (int i = 0; i < 7; i++) {
            assertThat(http.post("/orders?userId=3001").status()).isEqualTo(i < 5 ? 201 : 429);
        }
        step("order-submit's refusals per second on the page").until(
                () -> browser.count("#limiters tr[data-name='order-submit'] .over") > 0);
        // order-detail leases (@RateLimit(lease = "auto")), order-submit decides every call in Redis.
        awaitText("#limiters tr[data-name='order-detail'] .decides", "leased: auto-sized per lease");
        awaitText("#limiters tr[data-name='order-submit'] .decides", "exact: every decision in the backend");
        awaitText("#leases", "Leases of this instance:");

        // Every call fails: 5 calls (minimum-number-of-calls) at 100% failures open the breaker.
        assertThat(http.put("/chaos/inventory", "{\"failureRate\": 1.0, \"latencyMs\": 0}").status()).isEqualTo(200);
        for (int i = 0; i < 8; i++) {
            assertThat(http.get("/inventory/BOOK-" + i).status()).as("the fallback answers").isEqualTo(200);
        }
        awaitState("OPEN");
        awaitText(ROW + " .remaining", "half-open in");
        awaitText(ROW + " .transitions", "CLOSED → OPEN (failure rate");
        // Calls per second count whole seconds: the failures show once their second has passed.
        step("failed calls per second of inventory above 0").until(() -> browser.text(ROW + " .legend"),
                legend -> legend != null && !legend.contains("0.0 failed"));
        Path png = Path.of("target", "dashboard.png");
        Files.createDirectories(png.getParent());
        Files.write(png, browser.screenshot());

        // The downstream heals; after wait-duration-in-open-state (3 s) the breaker lets trial calls through.
        assertThat(http.put("/chaos/inventory", ChaosIT.HEALTHY).status()).isEqualTo(200);
        awaitState("HALF_OPEN");
        for (int i = 0; i < 3; i++) {
            assertThat(http.get("/inventory/BOOK-" + i).status()).isEqualTo(200);
        }
        awaitState("CLOSED");
        awaitText("#log", "inventory: HALF_OPEN → CLOSED (trial calls succeeded)");
        awaitText("#log", "inventory: OPEN → HALF_OPEN (wait in OPEN ended)");
    }

    @Test
    void showsABulkheadsLimitCallsInFlightAndRefusals() {
        Bulkhead bulkhead = bulkheads.bulkhead("dashboard-bulkhead", 2);
        Bulkhead.Permit first = bulkhead.tryAcquire();
        Bulkhead.Permit second = bulkhead.tryAcquire();
        assertThat(bulkhead.tryAcquire()).as("refused: the bulkhead is full").isNull();
        try {
            browser.load("http://127.0.0.1:" + port + "/actuator/guarddashboard");
            String row = "#bulkheads tr[data-name='dashboard-bulkhead']";
            awaitText(row + " .in-flight", "2 of 2");
            awaitText(row + " .limit", "2");
            awaitText(row + " th", "fixed");
            awaitText(row, "1 since start");
        } finally {
            first.release();
            second.release();
        }
    }

    /**
     * Waits until the page tells the state in text (the badge) and in its row's data. The page redraws its rows every
     * second, so every look reads them anew.
     */
    void awaitState(String state) {
        Supplier<String> shown = () -> browser.texts("#breakers tbody tr");
        step("the dashboard to show inventory " + state).untilAsserted(() -> {
            assertThat(browser.attribute(ROW, "data-state")).as("data-state; rows: %s", shown.get()).isEqualTo(state);
            assertThat(browser.text(ROW + " .state")).as("the badge; rows: %s", shown.get()).isEqualTo(state);
        });
    }

    void awaitText(String selector, String text) {
        step("'" + text + "' in " + selector).until(() -> browser.text(selector),
                shown -> shown != null && shown.contains(text));
    }

    static ConditionFactory step(String what) {
        return await(what).atMost(STEP).pollInterval(Duration.ofMillis(100)).pollDelay(Duration.ZERO);
    }
}
