package io.guard.spring.method;

import org.junit.jupiter.api.Test;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FallbackResolverTest {

    @SuppressWarnings("unused")
    static class Client {
        public String fetch(long id) {
            return "live";
        }

        private String byType(long id, IOException e) {
            return "io";
        }

        private String byType(long id, FileNotFoundException e) {
            return "missing file";
        }

        private String byType(RuntimeException e) {
            return "runtime";
        }

        private CharSequence wrongReturn(long id) {
            return "never";
        }

        private String wrongParameters(String id) {
            return "never";
        }

        private String untyped(long id) {
            return "any";
        }

        private String untyped(long id, IllegalStateException e) {
            return "state";
        }

        public CompletionStage<String> async(long id) {
            return CompletableFuture.completedFuture("live");
        }

        private CompletionStage<Integer> asyncWrongGeneric(long id) {
            return CompletableFuture.completedFuture(1);
        }

        private CompletableFuture<String> asyncFallback(long id, Throwable error) {
            return CompletableFuture.completedFuture("fallback");
        }
    }

    private static AnnotationSite site(String name, Class<?>... parameters) throws NoSuchMethodException {
        Method method = Client.class.getMethod(name, parameters);
        return new AnnotationSite("CircuitBreaker", Client.class, method);
    }

    private static Object answer(FallbackMethods fallbacks, Throwable error) throws Throwable {
        return fallbacks.select(error).orElseThrow().invoke(new Client(), new Object[] {7L}, error);
    }

    @Test
    void closestExceptionTypeWins() throws Throwable {
        FallbackMethods fallbacks = FallbackResolver.resolve(site("fetch", long.class), "byType");

        assertThat(answer(fallbacks, new FileNotFoundException())).isEqualTo("missing file");
        assertThat(answer(fallbacks, new IOException())).isEqualTo("io");
        assertThat(answer(fallbacks, new UncheckedIOException(new IOException()))).isEqualTo("runtime");
        assertThat(fallbacks.select(new Error("not handled"))).isEmpty();
    }

    @Test
    void anOverloadWithoutThrowableTakesWhatTypedOverloadsDoNot() throws Throwable {
        FallbackMethods fallbacks = FallbackResolver.resolve(site("fetch", long.class), "untyped");

        assertThat(answer(fallbacks, new IllegalStateException())).isEqualTo("state");
        assertThat(answer(fallbacks, new IOException())).isEqualTo("any");
    }

    @Test
    void genericReturnTypesMustFit() throws Throwable {
        FallbackMethods fallbacks = FallbackResolver.resolve(site("async", long.class), "asyncFallback");
        assertThat(fallbacks.select(new RuntimeException())).isPresent();

        assertThatThrownBy(() -> FallbackResolver.resolve(site("async", long.class), "asyncWrongGeneric"))
                .isInstanceOf(GuardAnnotationException.class)
                .hasMessageContaining("found asyncWrongGeneric(long) returning CompletionStage");
    }

    @Test
    void aMissingFallbackListsTheSignaturesThatWouldFit() {
        assertThatThrownBy(() -> FallbackResolver.resolve(site("fetch", long.class), "recover"))
                .isInstanceOf(GuardAnnotationException.class)
                .hasMessage("@CircuitBreaker on Client.fetch(long): fallbackMethod 'recover' names no method of Client")
                .extracting(e -> ((GuardAnnotationException) e).action()).asString()
                .contains("recover(long) returning String", "recover(long, Throwable) returning String",
                        "recover(Throwable) returning String");
    }

    @Test
    void aMismatchedFallbackNamesWhatWasFound() {
        assertThatThrownBy(() -> FallbackResolver.resolve(site("fetch", long.class), "wrongReturn"))
                .hasMessageContaining("has no overload that fits; found wrongReturn(long) returning CharSequence");
        assertThatThrownBy(() -> FallbackResolver.resolve(site("fetch", long.class), "wrongParameters"))
                .hasMessageContaining("found wrongParameters(String) returning String");
    }

    @Test
    void aFallbackForOneErrorTypeOnlyKeepsOverloadsThatAcceptIt() throws Throwable {
        FallbackMethods byType = FallbackResolver.resolveFor(site("fetch", long.class), "byType",
                UncheckedIOException.class);
        // byType(RuntimeException) accepts the error; the IOException overloads never could.
        assertThat(answer(byType, new UncheckedIOException(new IOException()))).isEqualTo("runtime");

        FallbackMethods untyped = FallbackResolver.resolveFor(site("fetch", long.class), "untyped",
                UncheckedIOException.class);
        // untyped(long, IllegalStateException) would never see the error: only untyped(long) is kept.
        assertThat(answer(untyped, new UncheckedIOException(new IOException()))).isEqualTo("any");

        assertThatThrownBy(() -> FallbackResolver.resolveFor(site("fetch", long.class), "byType",
                Error.class))
                .hasMessageContaining("has no overload that fits; found ")
                .extracting(e -> ((GuardAnnotationException) e).action()).asString()
                .contains("byType(long, Error) returning String", "any supertype of Error");
    }
}
