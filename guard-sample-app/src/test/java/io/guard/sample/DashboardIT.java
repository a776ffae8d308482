package io.guard.sample;

import io.guard.breaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.NoSuchElementException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The dashboard in a real browser: headless Chromium (Debian's {@code chromium} and {@code chromium-driver}) opens
 * {@code /actuator/guarddashboard}, the downstream breaks through {@code PUT /chaos/inventory}, and the page shows
 * the {@code inventory} breaker turn OPEN, then HALF_OPEN, then CLOSED, from the live event stream.
 *
 * <p>A screenshot of the OPEN moment is written to {@code target/dashboard.png}; docs/dashboard.png is a copy.
 * Without Chromium the test fails and says what to install: a browser test that skips proves nothing.
 */
@SampleAppTest
class DashboardIT {

    static final Path CHROMIUM = Path.of(System.getProperty("guard.chromium", "/usr/bin/chromium"));
    static final Path CHROMEDRIVER = Path.of(System.getProperty("guard.chromedriver", "/usr/bin/chromedriver"));
    static final Duration STEP = Duration.ofSeconds(20);

    @LocalServerPort
    int port;

    @Autowired
    CircuitBreakerRegistry breakers;

    @TempDir
    Path profile;

    Http http;
    ChromeDriver browser;

    @BeforeAll
    static void chromiumIsInstalled() {
        for (Path binary : new Path[] { CHROMIUM, CHROMEDRIVER }) {
            if (!Files.isExecutable(binary)) {
                fail(binary + " is missing: install Debian's chromium and chromium-driver "
                        + "(apt-get install -y chromium chromium-driver), as .ci/run does");
            }
        }
    }

    @BeforeEach
    void healthyDownstreamAndABrowser() {
        http = new Http(port);
        heal();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--user-data-dir=" + profile, "--window-size=1440,900");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        browser = new ChromeDriver(service, options);
        browser.manage().timeouts().pageLoadTimeout(STEP).scriptTimeout(STEP);
        browser.manage().window().setSize(new Dimension(1440, 900));
    }

    @AfterEach
    void closeBrowserAndHeal() {
        if (browser != null) {
            browser.quit();
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
        browser.get("http://127.0.0.1:" + port + "/actuator/guarddashboard");
        assertThat(browser.getTitle()).isEqualTo("Guard dashboard");
        awaitState("CLOSED");
        awaitText(By.id("connection"), "Live");

        // User 3001 places 7 orders against order-submit's 5 a minute: the limit's row shows the refusals.
        for (int i = 0; i < 7; i++) {
            assertThat(http.post("/orders?userId=3001").status()).isEqualTo(i < 5 ? 201 : 429);
        }
        wait(STEP).withMessage("order-submit's refusals per second on the page")
                .until(b -> !b.findElements(By.cssSelector("#limiters tr[data-name='order-submit'] .over")).isEmpty());

        // Every call fails: 5 calls (minimum-number-of-calls) at 100% failures open the breaker.
        assertThat(http.put("/chaos/inventory", "{\"failureRate\": 1.0, \"latencyMs\": 0}").status()).isEqualTo(200);
        for (int i = 0; i < 8; i++) {
            assertThat(http.get("/inventory/BOOK-" + i).status()).as("the fallback answers").isEqualTo(200);
        }
        awaitState("OPEN");
        awaitText(By.cssSelector("#breakers tr[data-name='inventory'] .remaining"), "half-open in");
        awaitText(By.cssSelector("#breakers tr[data-name='inventory'] .transitions"), "CLOSED → OPEN (failure rate");
        // Calls per second count whole seconds: the failures show once their second has passed.
        wait(STEP).withMessage("failed calls per second of inventory above 0")
                .until(b -> !row().findElement(By.cssSelector(".legend")).getText().contains("0.0 failed"));
        Path png = Path.of("target", "dashboard.png");
        Files.createDirectories(png.getParent());
        Files.write(png, browser.getScreenshotAs(OutputType.BYTES));

        // The downstream heals; after wait-duration-in-open-state (3 s) the breaker lets trial calls through.
        assertThat(http.put("/chaos/inventory", ChaosIT.HEALTHY).status()).isEqualTo(200);
        awaitState("HALF_OPEN");
        for (int i = 0; i < 3; i++) {
            assertThat(http.get("/inventory/BOOK-" + i).status()).isEqualTo(200);
        }
        awaitState("CLOSED");
        awaitText(By.id("log"), "inventory: HALF_OPEN → CLOSED (trial calls succeeded)");
        awaitText(By.id("log"), "inventory: OPEN → HALF_OPEN (wait in OPEN ended)");
    }

    WebElement row() {
        return browser.findElement(By.cssSelector("#breakers tr[data-name='inventory']"));
    }

    /**
     * Waits until the page tells the state in text (the badge) and in its row's data. The page redraws its rows every
     * second, so every look re-reads them, and a row replaced between two reads is looked up again.
     */
    void awaitState(String state) {
        wait(STEP).withMessage(() -> "the dashboard to show inventory " + state + "; it shows "
                        + browser.findElements(By.cssSelector("#breakers tbody tr")).stream()
                                .map(WebElement::getText).toList())
                .until(b -> {
                    WebElement row = row();
                    return state.equals(row.getAttribute("data-state"))
                            && state.equals(row.findElement(By.cssSelector(".state")).getText());
                });
    }

    void awaitText(By where, String text) {
        wait(STEP).withMessage(() -> "'" + text + "' in " + where)
                .until(b -> b.findElement(where).getText().contains(text));
    }

    WebDriverWait wait(Duration timeout) {
        WebDriverWait wait = new WebDriverWait(browser, timeout, Duration.ofMillis(100));
        wait.ignoring(StaleElementReferenceException.class);
        wait.ignoring(NoSuchElementException.class);
        return wait;
    }
}
