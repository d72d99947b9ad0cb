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

  /** Issue #19 item 9: the CLI and the file used to accept different grammars. */
  @Test
  void readsWhatTheConfigurationFileReads() {
    assertThat(Durations.parse("1h30m")).isEqualTo(Duration.ofMinutes(90));
    assertThat(Durations.parse("2d12h")).isEqualTo(Duration.ofHours(60));
    assertThat(Durations.parse("5min")).isEqualTo(Duration.ofMinutes(5));
    assertThat(Durations.parse("pt1h")).isEqualTo(Duration.ofHours(1));
    for (String text : java.util.List.of("1h30m", "2d12h", "5min", "PT15M", "500ms")) {
      assertThat(Durations.parse(text))
          .isEqualTo(org.meterstore.config.Units.parseDuration(text).orElseThrow());
    }
  }

  @Test
  void refusesWhatTheFileRefuses() {
    for (String text : java.util.List.of("1x", "-PT1H", "1.5h", "h", "", "1h 30m")) {
      assertThatThrownBy(() -> Durations.parse(text))
          .as(text)
          .isInstanceOf(TypeConversionException.class)
          .hasMessageContaining("a duration with a unit");
    }
  }

  @Test
  void refusesABareNumber() {
    assertThatThrownBy(() -> Durations.parse("15"))
        .isInstanceOf(TypeConversionException.class)
        .hasMessageContaining("with a unit");
  }
}
