package io.guard.spring.boot.autoconfigure;

import io.guard.spring.autoconfigure.report.BootLineCheck;

/** Stops start-up, naming the Boot 4 starter, when this Boot 3 starter finds itself on Spring Boot 4. */
public class Boot3LineCheck extends BootLineCheck {

    public Boot3LineCheck() {
        super(3, "guard-spring-boot3-starter");
    }
}
