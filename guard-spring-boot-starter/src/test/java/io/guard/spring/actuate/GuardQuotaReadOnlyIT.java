package io.guard.spring.actuate;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/** With the default (read-only) access, a quota can be read but not reset. */
@GuardActuatorTest
class GuardQuotaReadOnlyIT {

    @LocalServerPort
    int port;

    @Autowired
    LimitedService limited;

    @Test
    void readsAQuotaButRefusesAReset() {
        Http http = new Http(port);
        assertThat(LimitedService.rejections(() -> limited.quota("read-only"), 4)).isEqualTo(1);

        Http.Response reset = http.delete("/actuator/guard/limit-quota/quota?key=read-only");

        assertThat(reset.status()).isEqualTo(405);
        Http.Response read = http.get("/actuator/guard/limit-quota/quota?key=read-only");
        assertThat(read.status()).isEqualTo(200);
        assertThat(read.json().path("remaining").asLong()).as("not reset").isZero();
    }
}
