package org.meterstore.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Properties;
import org.junit.jupiter.api.Test;

class OptionsTest {
  private static Properties properties(String... keysAndValues) {
    Properties p = new Properties();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      p.setProperty(keysAndValues[i], keysAndValues[i + 1]);
    }
    return p;
  }

  @Test
  void withoutPropertiesTheProfileKeepsItsSizes() {
    assertThat(Profile.FULL.withOverrides(properties())).isEqualTo(Profile.FULL);
    assertThat(ArchivalOptions.from(properties())).isEqualTo(new ArchivalOptions(true, 50_000));
  }

  @Test
  void propertiesOverrideTheMeterCountsAndNothingElse() {
    Profile p =
        Profile.FULL.withOverrides(
            properties("bench.ingest.meters", "5", "bench.archival.meters", "59500"));
    assertThat(p.ingestMeters()).isEqualTo(5);
    assertThat(p.archivalMeters()).isEqualTo(59_500);
    assertThat(p.withOverrides(properties("bench.ingest.meters", "1000")).ingestMeters())
        .isEqualTo(1_000);
    assertThat(p.yearMeters()).isEqualTo(Profile.FULL.yearMeters());
    assertThat(p.name()).isEqualTo("full");
  }

  @Test
  void archivalOptionsSkipTheBaselineAndChangeTheChunk() {
    assertThat(
            ArchivalOptions.from(
                properties(
                    "bench.archival.baseline", "false", "bench.archival.sourceChunkRows", "1000")))
        .isEqualTo(new ArchivalOptions(false, 1_000));
  }

  @Test
  void refusesSizesThatAreNotPositiveIntegers() {
    assertThatThrownBy(() -> Profile.QUICK.withOverrides(properties("bench.archival.meters", "0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid bench.archival.meters: 0 (a positive integer)");
    assertThatThrownBy(() -> Profile.QUICK.withOverrides(properties("bench.ingest.meters", "1e3")))
        .hasMessage("Invalid bench.ingest.meters: 1e3 (a positive integer)");
    assertThatThrownBy(
            () -> ArchivalOptions.from(properties("bench.archival.sourceChunkRows", "-1")))
        .hasMessage("Invalid bench.archival.sourceChunkRows: -1 (a positive integer)");
  }

  @Test
  void theElidedScanReadsASubsetOfTheYearsLocations() {
    assertThat(Profile.QUICK.elidedMeters()).isEqualTo(Profile.QUICK.yearMeters());
    assertThat(Profile.FULL.elidedMeters()).isBetween(1, Profile.FULL.yearMeters());
    assertThat(Profile.FULL.monthRuns()).isEqualTo(50);
    assertThat(Profile.QUICK.monthRuns()).isEqualTo(20);
    assertThatThrownBy(() -> new Profile("x", 1, 1, 10, 1, 1, 1, 11, 1, 1L))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid elidedMeters: 11 (1..10, the year's)");
  }

  @Test
  void refusesABaselineSwitchThatIsNeitherTrueNorFalse() {
    assertThatThrownBy(() -> ArchivalOptions.from(properties("bench.archival.baseline", "no")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid bench.archival.baseline: no (true or false)");
  }
}
