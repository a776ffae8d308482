package io.guard.spring.aot;

import io.guard.breaker.CallNotPermittedException;
import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import io.guard.spring.ratelimit.RateLimitExceededException;
import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.javapoet.ClassName;

import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

// onMethod(..).invoke() is deprecated in Spring Framework 7 but is the form both Boot lines (6.2 and 7) have.
@SuppressWarnings("deprecation")
class GuardedTypeTest {

    record OrderForm(long userId, int items) {
    }

    record Receipt(long id) {
    }

    record Stock(String sku, int available) {
    }

    static class Orders {

        @RateLimit(name = "order-submit", key = "#form.userId", permits = "#form.items", fallbackMethod = "later")
        public Receipt submit(OrderForm form) {
            return new Receipt(1);
        }

        private Receipt later(OrderForm form, RateLimitExceededException refused) {
            return new Receipt(0);
        }

        Receipt later(RateLimitExceededException refused) {
            return new Receipt(-1);
        }

        public Receipt find(long id) {
            return new Receipt(id);
        }
    }

    abstract static class InventoryBase {

        protected CompletableFuture<Stock> degraded(Throwable error) {
            return CompletableFuture.completedFuture(new Stock("?", 0));
        }
    }

    @CircuitBreaker(name = "inventory", fallbackMethod = "degraded")
    static class Inventory extends InventoryBase {

        private String region = "eu";

        public CompletableFuture<Stock> stock(String sku) {
            return CompletableFuture.completedFuture(new Stock(sku, 3));
        }

        public CompletableFuture<Stock> degraded(String sku, CallNotPermittedException open) {
            return CompletableFuture.completedFuture(new Stock(sku, 0));
        }

        public String getRegion() {
            return region;
        }
    }

    interface Quotes {

        @RateLimit(name = "quotes")
        String quote(String id);
    }

    static class QuotesImpl implements Quotes {

        @Override
        public String quote(String id) {
            return id;
        }
    }

    static class Plain {

        public Receipt find(long id) {
            return new Receipt(id);
        }
    }

    @Test
    void aGuardedMethodItsFallbackOverloadsAndTheTypesItsExpressionsReadAreDeclared() throws Exception {
        RuntimeHints hints = hintsFor(Orders.class);
        assertThat(invocable(Orders.class.getMethod("submit", OrderForm.class))).accepts(hints);
        assertThat(invocable(Orders.class.getDeclaredMethod("later", OrderForm.class,
                RateLimitExceededException.class))).as("the private overload").accepts(hints);
        assertThat(invocable(Orders.class.getDeclaredMethod("later", RateLimitExceededException.class)))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(OrderForm.class)
                .withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).as("#form.userId").accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(Receipt.class)
                .withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).as("#result").accepts(hints);
        assertThat(invocable(Orders.class.getMethod("find", long.class))).as("not guarded").rejects(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(String.class)).as("the JDK's own").rejects(hints);
    }

    @Test
    void aClassLevelBreakerCoversPublicMethodsAndFindsFallbacksInSuperclasses() throws Exception {
        RuntimeHints hints = hintsFor(Inventory.class);
        assertThat(invocable(Inventory.class.getMethod("stock", String.class))).accepts(hints);
        assertThat(invocable(Inventory.class.getMethod("degraded", String.class, CallNotPermittedException.class)))
                .accepts(hints);
        assertThat(invocable(InventoryBase.class.getDeclaredMethod("degraded", Throwable.class)))
                .as("inherited fallback").accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(Stock.class)
                .withMemberCategory(MemberCategory.INVOKE_PUBLIC_METHODS)).as("in CompletableFuture<Stock>")
                .accepts(hints);
        assertThat(invocable(Inventory.class.getMethod("getRegion"))).as("a field accessor is not covered")
                .rejects(hints);
    }

    @Test
    void anAnnotationOnAnInterfaceMethodCountsForTheImplementation() throws Exception {
        RuntimeHints hints = hintsFor(QuotesImpl.class);
        assertThat(invocable(QuotesImpl.class.getMethod("quote", String.class))).accepts(hints);
    }

    @Test
    void theProcessorContributesForGuardedBeansOnly() throws Exception {
        assertThat(contribution(Plain.class)).isNull();
        BeanRegistrationAotContribution contribution = contribution(Orders.class);
        assertThat(contribution).isNotNull();
        var generation = new DefaultGenerationContext(new ClassNameGenerator(ClassName.get("com.example", "App")),
                new InMemoryGeneratedFiles());
        contribution.applyTo(generation, null);
        assertThat(invocable(Orders.class.getDeclaredMethod("later", OrderForm.class,
                RateLimitExceededException.class))).accepts(generation.getRuntimeHints());
    }

    @Test
    void describesWhatItFound() {
        assertThat(GuardedType.of(Orders.class).guardedMethods()).extracting(Method::getName)
                .containsExactly("submit");
        assertThat(GuardedType.of(Orders.class).fallbackMethods()).hasSize(2);
        assertThat(GuardedType.of(Plain.class).isEmpty()).isTrue();
        assertThat(List.copyOf(GuardedType.of(Inventory.class).guardedMethods())).extracting(Method::getName)
                .containsExactlyInAnyOrder("stock", "degraded");
    }

    private static BeanRegistrationAotContribution contribution(Class<?> type) {
        var beans = new DefaultListableBeanFactory();
        beans.registerBeanDefinition("bean", new RootBeanDefinition(type));
        return new GuardedBeanAotProcessor().processAheadOfTime(RegisteredBean.of(beans, "bean"));
    }

    private static RuntimeHints hintsFor(Class<?> type) {
        RuntimeHints hints = new RuntimeHints();
        GuardedType.of(type).registerHints(hints);
        return hints;
    }

    private static java.util.function.Predicate<RuntimeHints> invocable(Method method) {
        return RuntimeHintsPredicates.reflection().onMethod(method).invoke();
    }
}
