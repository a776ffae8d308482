package io.guard.spring.boot.autoconfigure;

import io.guard.spring.autoconfigure.report.BootLineCheck;

/** Stops start-up, naming the Boot 3 starter, when this Boot 4 starter finds itself on Spring Boot 3. */
public class Boot4LineCheck extends BootLineCheck {

    public Boot4LineCheck() {
        super(4, "guard-spring-boot-starter");
    }
}
