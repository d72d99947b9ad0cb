package org.meterstore.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class DurationsTest {
  @Test
  void readsUnitsAndIso() {
    assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Durations.parse("30s")).isEqualTo(Duration.ofSeconds(30));
    assertThat(Durations.parse("15m")).isEqualTo(Duration.ofMinutes(15));
    assertThat(Durations.parse("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(Durations.parse("7d")).isEqualTo(Duration.ofDays(7));
    assertThat(Durations.parse("PT15M")).isEqualTo(Duration.ofMinutes(15));
  }

  @Test
  void refusesABareNumber() {
    assertThatThrownBy(() -> Durations.parse("15"))
        .isInstanceOf(TypeConversionException.class)
        .hasMessageContaining("with a unit");
  }
}
