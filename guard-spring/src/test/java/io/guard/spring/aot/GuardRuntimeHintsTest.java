package io.guard.spring.aot;

import io.guard.spring.autoconfigure.GuardProperties;
import io.guard.spring.autoconfigure.RateLimitProperties;
import io.guard.spring.autoconfigure.RouteProperties;
import org.junit.jupiter.api.Test;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.beans.factory.aot.AotServices;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

// onMethod(..).invoke() is deprecated in Spring Framework 7 but is the form both Boot lines (6.2 and 7) have.
@SuppressWarnings("deprecation")
class GuardRuntimeHintsTest {

    private final RuntimeHints hints = registered();

    private static RuntimeHints registered() {
        RuntimeHints hints = new RuntimeHints();
        new GuardRuntimeHints().registerHints(hints, GuardRuntimeHintsTest.class.getClassLoader());
        return hints;
    }

    @Test
    void everyLuaScriptOnTheClassPathIsAResourceHint() throws IOException {
        List<String> scripts = paths("classpath*:guard/lua/*.lua", "guard/lua/");
        assertThat(scripts).as("guard-redis's scripts").contains("guard/lua/decide.lua", "guard/lua/sliding_log.lua",
                "guard/lua/token_bucket.lua", "guard/lua/fixed_window.lua");
        assertThat(scripts).allSatisfy(script -> assertThat(RuntimeHintsPredicates.resource().forResource(script))
                .as(script).accepts(hints));
    }

    @Test
    void theDashboardPageAndItsAssetsAreResourceHints() throws IOException {
        List<String> files = paths("classpath*:io/guard/spring/actuate/dashboard/*", "io/guard/spring/actuate/");
        assertThat(files).contains("io/guard/spring/actuate/dashboard/index.html",
                "io/guard/spring/actuate/dashboard/dashboard.js", "io/guard/spring/actuate/dashboard/dashboard.css");
        assertThat(files).allSatisfy(file -> assertThat(RuntimeHintsPredicates.resource().forResource(file))
                .as(file).accepts(hints));
    }

    @Test
    void expressionsCanReadEveryPropertyOfTheRoot() throws ReflectiveOperationException {
        List<Method> getters = Arrays.stream(Class.forName(GuardRuntimeHints.EXPRESSION_ROOT).getDeclaredMethods())
                .filter(method -> Modifier.isPublic(method.getModifiers())).toList();
        assertThat(getters).extracting(Method::getName).contains("getMethodName", "getArgs", "getTargetClass");
        assertThat(getters).allSatisfy(getter -> assertThat(RuntimeHintsPredicates.reflection().onMethod(getter)
                .invoke()).as(getter.getName()).accepts(hints));
        // #root.targetClass.simpleName and #root.method.name
        assertThat(RuntimeHintsPredicates.reflection().onMethod(Class.class.getMethod("getSimpleName")).invoke())
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethod(Method.class.getMethod("getName")).invoke())
                .accepts(hints);
    }

    @Test
    void propertiesBoundOutsideTheirBeansCanBeBound() throws NoSuchMethodException {
        assertThat(RuntimeHintsPredicates.reflection().onType(GuardProperties.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection()
                .onMethod(RateLimitProperties.class.getMethod("setRoutes", List.class)).invoke()).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(RouteProperties.class)).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection()
                .onMethod(RouteProperties.class.getMethod("getMethods")).invoke()).accepts(hints);
    }

    @Test
    void optionalClassesAskedForByNameAreKnown() {
        assertThat(GuardRuntimeHints.LOOKED_UP_BY_NAME).contains("reactor.core.publisher.Mono",
                "org.springframework.security.core.context.SecurityContextHolder");
        assertThat(GuardRuntimeHints.LOOKED_UP_BY_NAME).allSatisfy(name -> assertThat(
                RuntimeHintsPredicates.reflection().onType(TypeReference.of(name))).as(name).accepts(hints));
    }

    @Test
    void springAotFindsGuardsRegistrarsAndProcessor() {
        AotServices.Loader loader = AotServices.factories(getClass().getClassLoader());
        assertThat(loader.load(RuntimeHintsRegistrar.class).asList()).extracting(registrar -> registrar.getClass()
                .getName()).contains(GuardRuntimeHints.class.getName(),
                "io.guard.spring.actuate.GuardEndpointRuntimeHints");
        assertThat(loader.load(org.springframework.beans.factory.aot.BeanRegistrationAotProcessor.class).asList())
                .hasAtLeastOneElementOfType(GuardedBeanAotProcessor.class);
    }

    /** The class-path resources matching {@code pattern}, as paths from the class-path root. */
    private static List<String> paths(String pattern, String marker) throws IOException {
        Resource[] found = new PathMatchingResourcePatternResolver().getResources(pattern);
        return Arrays.stream(found).map(resource -> {
            try {
                String url = resource.getURL().toString();
                return url.substring(url.lastIndexOf(marker));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }).distinct().toList();
    }
}
