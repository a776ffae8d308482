package io.guard.spring.aop;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/** Asserts that an application fails to start with messages (along the cause chain) that say each expected part. */
final class StartUpFailures {

    private StartUpFailures() {
    }

    static void assertStartUpFails(ApplicationContextRunner failing, String... expected) {
        failing.run(context -> {
            assertThat(context).hasFailed();
            StringBuilder messages = new StringBuilder();
            for (Throwable t = context.getStartupFailure(); t != null; t = t.getCause()) {
                messages.append(t.getMessage()).append('\n');
            }
            assertThat(messages.toString()).contains(expected);
        });
    }
}
