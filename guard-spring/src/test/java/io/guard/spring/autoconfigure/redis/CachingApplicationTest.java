package io.guard.spring.autoconfigure.redis;

import io.guard.spring.autoconfigure.GuardAutoConfiguration;
import io.guard.spring.test.AutoConfigs;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.caffeine.CaffeineCacheManager;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application that caches with Caffeine through Spring's {@code @Cacheable}, as PetClinic does, once Guard and
 * the {@code org.redisson:redisson} jar are added: Redisson's JCache provider must not silently take over the
 * application's cache, and when the application brings the JCache API itself the failure explains what to set.
 */
class CachingApplicationTest {

    private final ApplicationContextRunner application = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(GuardAutoConfiguration.class))
            .withConfiguration(AutoConfigurations.of(AutoConfigs.types("CacheAutoConfiguration")))
            .withUserConfiguration(VetCatalog.class)
            // caches named up front, like an application that declares them; Caffeine makes them as named
            .withPropertyValues("guard.rate-limit.backend=local", "spring.cache.cache-names=vets");

    @Test
    void keepsTheApplicationsCaffeineCacheWhenRedissonComesWithoutTheJCacheApi() {
        // The README's dependency excludes javax.cache:cache-api from org.redisson:redisson.
        application.withClassLoader(new FilteredClassLoader("javax.cache.")).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(CacheManager.class)).isInstanceOf(CaffeineCacheManager.class);
            assertThat(context.getBean(Vets.class).all()).isSameAs(context.getBean(Vets.class).all());
        });
    }

    @Test
    void explainsWhatToSetWhenRedissonsJCacheProviderTakesOverTheCache() {
        application.run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = new RedissonJCacheFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription()).contains("Redisson's JCache provider",
                    "Default configuration hasn't been specified!");
            assertThat(analysis.getAction()).contains("spring.cache.type=caffeine",
                    "exclude javax.cache:cache-api from the org.redisson:redisson dependency");
        });
    }

    @Test
    void theSettingTheAnalysisSuggestsStartsTheApplicationWithItsCaffeineCache() {
        application.withPropertyValues("spring.cache.type=caffeine").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(CacheManager.class)).isInstanceOf(CaffeineCacheManager.class);
        });
    }

    @Test
    void leavesOtherFailuresToOtherAnalyzers() {
        assertThat(new RedissonJCacheFailureAnalyzer().analyze(
                new IllegalStateException(RedissonJCacheFailureAnalyzer.REDISSON_MESSAGE))).isNull();
    }

    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    public static class VetCatalog {

        @Bean
        Vets vets() {
            return new Vets();
        }
    }

    public static class Vets {

        @Cacheable("vets")
        public Object all() {
            return new Object();
        }
    }
}
