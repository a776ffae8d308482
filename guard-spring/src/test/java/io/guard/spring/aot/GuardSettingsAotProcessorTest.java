package io.guard.spring.aot;

import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.GeneratedFiles.Kind;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.javapoet.ClassName;
import org.springframework.mock.env.MockEnvironment;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.StringReader;
import java.util.Properties;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

/** What Guard contributes while Spring AOT processes an application context, read from what AOT generated. */
class GuardSettingsAotProcessorTest {

    static class PaymentDeclinedException extends RuntimeException {
    }

    @Test
    void recordsTheBuildTimeSettingsAndDeclaresTheExceptionClassesConfigurationNames() throws IOException {
        GenericApplicationContext context = new GenericApplicationContext();
        context.setEnvironment(new MockEnvironment()
                .withProperty("guard.observations.enabled", "false")
                .withProperty("guard.circuit-breaker.defaults.record-exceptions[0]", TimeoutException.class.getName())
                .withProperty("guard.circuit-breaker.instances.payments.ignore-exceptions[0]",
                        PaymentDeclinedException.class.getName())
                .withProperty("guard.circuit-breaker.instances.files.record-exceptions[0]",
                        FileNotFoundException.class.getName()));
        InMemoryGeneratedFiles files = new InMemoryGeneratedFiles();
        DefaultGenerationContext generation = new DefaultGenerationContext(
                new ClassNameGenerator(ClassName.get("com.example", "App")), files);

        new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
        generation.writeGeneratedContent();

        Properties recorded = new Properties();
        recorded.load(new StringReader(files.getGeneratedFileContent(Kind.RESOURCE, BuildTimeSettings.RESOURCE)));
        assertThat(recorded.getProperty("guard.observations.enabled")).isEqualTo("false");
        assertThat(RuntimeHintsPredicates.resource().forResource(BuildTimeSettings.RESOURCE))
                .accepts(generation.getRuntimeHints());
        assertThat(RuntimeHintsPredicates.reflection().onType(TimeoutException.class))
                .accepts(generation.getRuntimeHints());
        assertThat(RuntimeHintsPredicates.reflection().onType(PaymentDeclinedException.class))
                .accepts(generation.getRuntimeHints());
        assertThat(RuntimeHintsPredicates.reflection().onType(FileNotFoundException.class))
                .accepts(generation.getRuntimeHints());
    }
}
