package org.meterstore.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Period;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class UnitsTest {
  @ParameterizedTest
  @CsvSource({
    "500ms, PT0.5S",
    "3s, PT3S",
    "0s, PT0S",
    "15m, PT15M",
    "15min, PT15M",
    "1h30m, PT1H30M",
    "45d, PT1080H",
    "PT15M, PT15M",
    "P1D, PT24H",
    "pt1h, PT1H"
  })
  void readsDurationsWithUnits(String text, String expected) {
    assertThat(Units.duration(text)).isEqualTo(Duration.parse(expected));
  }

  @ParameterizedTest
  @ValueSource(strings = {"3", "", "3 s", "-1s", "3x", "1.5h", "s3", "PT-1S", "P1Y", "1h 30m"})
  void refusesDurationsWithoutAUnitOrWithAnUnknownOne(String text) {
    assertThat(Units.duration(text)).isNull();
  }

  @ParameterizedTest
  @CsvSource({"10y, P10Y", "18mo, P18M", "2w, P14D", "30d, P30D", "1y6mo, P1Y6M", "P10Y, P10Y"})
  void readsPeriods(String text, String expected) {
    assertThat(Units.period(text)).isEqualTo(Period.parse(expected));
  }

  @ParameterizedTest
  @ValueSource(strings = {"10", "10m", "1h", "-1y", "P-1Y"})
  void refusesPeriodsWithoutACalendarUnit(String text) {
    assertThat(Units.period(text)).isNull();
  }

  @ParameterizedTest
  @CsvSource({"128MiB, 134217728", "512KiB, 524288", "1GiB, 1073741824", "1048576B, 1048576"})
  void readsSizes(String text, long bytes) {
    assertThat(Units.bytes(text)).isEqualTo(bytes);
  }

  @ParameterizedTest
  @ValueSource(strings = {"128", "128MB", "1.5GiB", "MiB", "99999999999GiB"})
  void refusesSizesWithoutABinaryUnit(String text) {
    assertThat(Units.bytes(text)).isEqualTo(-1);
  }
}
