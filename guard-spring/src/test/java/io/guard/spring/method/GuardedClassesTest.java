package io.guard.spring.method;

import io.guard.spring.annotation.CircuitBreaker;
import io.guard.spring.annotation.RateLimit;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.ProxyFactory;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.ArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The per-class first filter: every place a Guard annotation can sit makes a class a candidate, and a class with none
 * is not, so proxy creation and start-up validation skip it with one scan.
 */
class GuardedClassesTest {

    @Test
    void aClassWithoutGuardAnnotationsIsNoCandidate() {
        assertThat(GuardedMethods.isCandidate(Plain.class)).isFalse();
        assertThat(GuardedMethods.isCandidate(ArrayList.class)).isFalse();
    }

    @Test
    void anAnnotatedMethodMakesTheClassACandidate() {
        assertThat(GuardedMethods.isCandidate(LimitedMethod.class)).isTrue();
        assertThat(GuardedMethods.isCandidate(BrokenPrivately.class)).isTrue();
    }

    @Test
    void anAnnotatedClassMakesItAndItsSubclassesCandidates() {
        assertThat(GuardedMethods.isCandidate(LimitedClass.class)).isTrue();
        assertThat(GuardedMethods.isCandidate(SubclassOfLimitedClass.class)).isTrue();
    }

    @Test
    void annotationsOnASuperclassMethodOrAnInterfaceCount() {
        assertThat(GuardedMethods.isCandidate(SubclassOfLimitedMethod.class)).isTrue();
        assertThat(GuardedMethods.isCandidate(ImplementsLimitedInterface.class)).isTrue();
        assertThat(GuardedMethods.isCandidate(ImplementsLimitedInterfaceType.class)).isTrue();
    }

    @Test
    void aComposedAnnotationCounts() {
        assertThat(GuardedMethods.isCandidate(UsesComposedAnnotation.class)).isTrue();
    }

    @Test
    void aJdkProxyOfAnAnnotatedInterfaceIsACandidate() {
        ProxyFactory factory = new ProxyFactory(new ImplementsLimitedInterface());
        factory.addInterface(LimitedInterface.class);
        assertThat(GuardedMethods.isCandidate(factory.getProxy().getClass())).isTrue();
    }

    static class Plain {
        public String find(String id) {
            return id;
        }
    }

    static class LimitedMethod {
        @RateLimit(name = "find", rate = 5, interval = "1s")
        public String find(String id) {
            return id;
        }
    }

    static class BrokenPrivately {
        @CircuitBreaker(name = "inner")
        String call() {
            return "";
        }
    }

    @RateLimit(name = "all", rate = 5, interval = "1s")
    static class LimitedClass {
        public String find(String id) {
            return id;
        }
    }

    static class SubclassOfLimitedClass extends LimitedClass {
    }

    static class SubclassOfLimitedMethod extends LimitedMethod {
        @Override
        public String find(String id) {
            return id + "!";
        }
    }

    interface LimitedInterface {
        @RateLimit(name = "lookup", rate = 5, interval = "1s")
        String lookup(String id);
    }

    static class ImplementsLimitedInterface implements LimitedInterface {
        @Override
        public String lookup(String id) {
            return id;
        }
    }

    @CircuitBreaker(name = "typed")
    interface LimitedInterfaceType {
        String lookup(String id);
    }

    static class ImplementsLimitedInterfaceType implements LimitedInterfaceType {
        @Override
        public String lookup(String id) {
            return id;
        }
    }

    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.METHOD)
    @RateLimit(name = "composed", rate = 5, interval = "1s")
    @interface ComposedLimit {
    }

    static class UsesComposedAnnotation {
        @ComposedLimit
        public String find(String id) {
            return id;
        }
    }
}
