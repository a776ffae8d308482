package io.guard.sample;

import javafx.application.Platform;
import javafx.concurrent.Worker;
import javafx.scene.Scene;
import javafx.scene.image.PixelFormat;
import javafx.scene.image.WritableImage;
import javafx.scene.web.WebView;
import javafx.stage.Stage;
import org.awaitility.Awaitility;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A real browser engine from Maven artifacts alone, so a page test needs no installed browser and no display:
 * JavaFX's WebView (WebKit, with fetch, EventSource, SVG and modern JavaScript) on Monocle's headless platform with
 * software rendering. Reads the live page by CSS selector, as a user sees it ({@code innerText}), and takes
 * screenshots. Every call is bounded by {@link #CALL}.
 */
final class HeadlessBrowser implements AutoCloseable {

    static final Duration CALL = Duration.ofSeconds(20);

    private final Stage stage;
    private final WebView view;

    private HeadlessBrowser(Stage stage, WebView view) {
        this.stage = stage;
        this.view = view;
    }

    /** A browser window of this size (CSS pixels), empty until {@link #load}. */
    static HeadlessBrowser open(int width, int height) {
        Toolkit.started();
        return onFx(() -> {
            WebView view = new WebView();
            Stage stage = new Stage();
            stage.setScene(new Scene(view, width, height));
            stage.show();
            return new HeadlessBrowser(stage, view);
        });
    }

    /**
     * Loads {@code url} and returns once the page and its scripts are loaded.
     *
     * @throws IllegalStateException if the page fails to load or does not load within {@link #CALL}
     */
    void load(String url) {
        CompletableFuture<Worker.State> done = new CompletableFuture<>();
        onFx(() -> {
            Worker<Void> worker = view.getEngine().getLoadWorker();
            worker.stateProperty().addListener((property, before, now) -> {
                if (now == Worker.State.SUCCEEDED || now == Worker.State.FAILED || now == Worker.State.CANCELLED) {
                    done.complete(now);
                }
            });
            view.getEngine().load(url);
            return null;
        });
        Worker.State state = await(done, "loading " + url);
        if (state != Worker.State.SUCCEEDED) {
            throw new IllegalStateException("loading " + url + " ended " + state + ": "
                    + onFx(() -> String.valueOf(view.getEngine().getLoadWorker().getException())));
        }
    }

    String title() {
        return onFx(() -> view.getEngine().getTitle());
    }

    /** The rendered text of the first element that {@code selector} matches, or null if none does. */
    String text(String selector) {
        return (String) script("(() => { const e = document.querySelector(" + quote(selector)
                + "); return e ? e.innerText : null; })()");
    }

    /** The attribute {@code name} of the first element that {@code selector} matches, or null. */
    String attribute(String selector, String name) {
        return (String) script("(() => { const e = document.querySelector(" + quote(selector)
                + "); return e ? e.getAttribute(" + quote(name) + ") : null; })()");
    }

    /** The rendered text of every element that {@code selector} matches, in document order. */
    String texts(String selector) {
        return (String) script("[...document.querySelectorAll(" + quote(selector)
                + ")].map(e => e.innerText).join(' | ')");
    }

    /** How many elements {@code selector} matches. */
    int count(String selector) {
        return ((Number) script("document.querySelectorAll(" + quote(selector) + ").length")).intValue();
    }

    /** The window as it looks now, as PNG. */
    byte[] screenshot() {
        WritableImage image = onFx(() -> view.snapshot(null, null));
        int width = (int) image.getWidth();
        int height = (int) image.getHeight();
        int[] pixels = new int[width * height];
        image.getPixelReader().getPixels(0, 0, width, height, PixelFormat.getIntArgbInstance(), pixels, 0, width);
        BufferedImage png = new BufferedImage(width, height, BufferedImage.TYPE_INT_ARGB);
        png.setRGB(0, 0, width, height, pixels, 0, width);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            ImageIO.write(png, "png", bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot encode the screenshot", e);
        }
        return bytes.toByteArray();
    }

    private Object script(String script) {
        return onFx(() -> view.getEngine().executeScript(script));
    }

    /** Leaves the page (its timers and its event stream end with it) and closes the window. */
    @Override
    public void close() {
        onFx(() -> {
            view.getEngine().load(null);
            stage.close();
            return null;
        });
    }

    /**
     * Ends JavaFX (its WebKit threads included) and waits for its thread to finish, before the JVM exits: a JVM that
     * exits with WebKit still running can abort in native code after every test has passed, which fails the build.
     */
    static void shutDown() {
        if (fxThreadAlive()) {
            Platform.exit();
            Awaitility.await().atMost(CALL).until(() -> !fxThreadAlive());
        }
    }

    private static boolean fxThreadAlive() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.isAlive() && t.getName().equals("JavaFX Application Thread"));
    }

    /** A JavaScript string literal of {@code text}. */
    private static String quote(String text) {
        StringBuilder quoted = new StringBuilder("'");
        for (char c : text.toCharArray()) {
            if (c == '\'' || c == '\\') {
                quoted.append('\\').append(c);
            } else if (c < ' ') {
                quoted.append(String.format("\\u%04x", (int) c));
            } else {
                quoted.append(c);
            }
        }
        return quoted.append('\'').toString();
    }

    /** Runs {@code work} on the JavaFX thread, which owns every page and window, and waits for its result. */
    private static <T> T onFx(Callable<T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Platform.runLater(() -> {
            try {
                result.complete(work.call());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        });
        return await(result, "the JavaFX thread");
    }

    private static <T> T await(CompletableFuture<T> result, String what) {
        try {
            return result.get(CALL.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException(what + " failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException(what + " did not answer within " + CALL.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + what, e);
        }
    }

    /** JavaFX starts once per JVM: this class's initialization does it, headless, before the first window. */
    private static final class Toolkit {

        static {
            System.getProperties().putIfAbsent("glass.platform", "Monocle");
            System.getProperties().putIfAbsent("monocle.platform", "Headless");
            System.getProperties().putIfAbsent("prism.order", "sw");
            System.getProperties().putIfAbsent("headless.geometry", "1440x900-32");
            CountDownLatch started = new CountDownLatch(1);
            Platform.setImplicitExit(false); // closing the last window must not end JavaFX for the next test
            Platform.startup(started::countDown);
            try {
                if (!started.await(CALL.toMillis(), TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("JavaFX did not start within " + CALL.toSeconds() + " s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting JavaFX", e);
            }
        }

        private Toolkit() {
        }

        static void started() {
            // initializing the class has started JavaFX
        }
    }
}
