package org.meterstore.hot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

class HotSettingsTest {
  @Test
  void defaultsToSchemaMeterstoreAndThreeSeconds() {
    assertThat(HotSettings.DEFAULTS.schema()).isEqualTo("meterstore");
    assertThat(HotSettings.DEFAULTS.ddlLockTimeout()).isEqualTo(Duration.ofSeconds(3));
  }

  @Test
  void acceptsZeroToDisableTheTimeout() {
    assertThat(HotSettings.DEFAULTS.withDdlLockTimeout(Duration.ZERO).ddlLockTimeout()).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "Meter", "1st", "pg_meter", "meter-store", "m\"x", "a b"})
  void refusesASchemaThatIsNotAPlainLowercaseIdentifier(String schema) {
    MeterStoreException e =
        catchThrowableOfType(
            MeterStoreException.class, () -> HotSettings.DEFAULTS.withSchema(schema));
    assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG);
    assertThat(e.getMessage()).startsWith("Invalid schema: '" + schema + "'");
  }

  @Test
  void refusesANegativeOrSubMillisecondOrHugeTimeout() {
    for (Duration d :
        new Duration[] {Duration.ofMillis(-1), Duration.ofNanos(1_500_000), Duration.ofDays(30)}) {
      MeterStoreException e =
          catchThrowableOfType(
              MeterStoreException.class, () -> HotSettings.DEFAULTS.withDdlLockTimeout(d));
      assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG);
      assertThat(e.getMessage()).contains("ddl_lock_timeout", "whole milliseconds");
    }
  }

  @Test
  void configNeverShowsThePassword() {
    HotConfig config =
        HotConfig.of("jdbc:postgresql://db/metering?password=hunter2", "meter", "s3cret");
    assertThat(config.toString())
        .doesNotContain("s3cret")
        .doesNotContain("hunter2")
        .contains("password=****", "jdbc:postgresql://db/metering");
  }

  @Test
  void configRefusesAForeignUrlAndABadPoolSize() {
    assertThat(
            catchThrowableOfType(
                    MeterStoreException.class, () -> HotConfig.of("jdbc:mysql://x/y", "u", "p"))
                .kind())
        .isEqualTo(ErrorKind.CONFIG);
    assertThat(
            catchThrowableOfType(
                    MeterStoreException.class,
                    () -> HotConfig.of("jdbc:postgresql://x/y", "u", "p").withPoolSize(0))
                .getMessage())
        .contains("pool_size");
  }
}
