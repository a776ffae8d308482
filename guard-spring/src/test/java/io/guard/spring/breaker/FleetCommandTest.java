package io.guard.spring.breaker;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FleetCommandTest {

    private static final Instant AT = Instant.parse("2026-12-05T02:30:00.123Z");

    @Test
    void aCommandSurvivesItsEncodingWhateverCharactersItsNamesHold() {
        FleetCommand command = new FleetCommand("pay&ments=eu", FleetState.FORCED_OPEN, "CN=ann, O=ops;x",
                "orders@host-1:4242", AT);

        assertThat(FleetCommand.decode(command.encode())).isEqualTo(command);
    }

    @Test
    void aSharedOpeningCarriesHowLongItLasts() {
        FleetCommand opening = new FleetCommand("b", FleetState.OPEN, "share-open", "i", AT, Duration.ofSeconds(30));

        assertThat(FleetCommand.decode(opening.encode())).isEqualTo(opening);
        assertThat(FleetState.OPEN.byOperator()).isFalse();
        assertThat(FleetState.ACCEPTED).isEqualTo("FORCED_OPEN, DISABLED, CLOSED, RESET");
    }

    @Test
    void fieldsANewerInstanceAddsAreIgnored() {
        String text = new FleetCommand("b", FleetState.RESET, "ann", "i", AT).encode() + "&ttl=30s";

        assertThat(FleetCommand.decode(text).state()).isEqualTo(FleetState.RESET);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "FORCED_OPEN payments|'FORCED_OPEN payments' is no field=value pair",
            "breaker=b&state=HALF_OPEN&by=a&from=i&at=2026-01-01T00:00:00Z|state 'HALF_OPEN' is not one of",
            "breaker=b&state=OPEN&by=a&from=i&at=2026-01-01T00:00:00Z|field 'openFor' of an OPEN is missing",
            "breaker=b&state=OPEN&by=a&from=i&at=2026-01-01T00:00:00Z&openFor=-PT1S|openFor must be positive",
            "breaker=b&state=RESET&by=a&from=i&at=yesterday|at 'yesterday' is not an instant",
            "breaker=b&state=RESET&from=i&at=2026-01-01T00:00:00Z|field 'by' is missing",
            "breaker=&state=RESET&by=a&from=i&at=2026-01-01T00:00:00Z|field 'breaker' is missing",
            "breaker=b&breaker=c&state=RESET&by=a&from=i&at=2026-01-01T00:00:00Z|field 'breaker' is repeated",
            "breaker=%zz&state=RESET&by=a&from=i&at=2026-01-01T00:00:00Z|'%zz' is not form-encoded",
    })
    void aMalformedCommandIsRefusedNamingWhatIsWrong(String text, String reason) {
        assertThatThrownBy(() -> FleetCommand.decode(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(reason);
    }

    @Test
    void onlyForcedOpenAndDisabledAreKeptForInstancesThatStartLater() {
        assertThat(FleetState.values()).filteredOn(FleetState::kept)
                .containsExactly(FleetState.FORCED_OPEN, FleetState.DISABLED);
        assertThat(FleetState.parse("forced-open")).contains(FleetState.FORCED_OPEN);
        assertThat(FleetState.parse("HALF_OPEN")).isEmpty();
    }
}
