package io.guard.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

import java.time.Clock;

/**
 * The sample order service: every Guard feature on a small HTTP surface. Starts an embedded Redis when none
 * answers at {@code spring.data.redis.*} (see {@code io.guard.sample.redis}).
 */
@SpringBootApplication
public class OrderServiceApplication {

    public static void main(String[] args) {
        SpringApplication.run(OrderServiceApplication.class, args);
    }

    /** The wall clock, as a bean so that tests can fix it. */
    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }
}
