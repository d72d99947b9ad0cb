package org.meterstore.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.config.ColdConfig;
import org.meterstore.cold.config.ColdTimeouts;

/** The outage bounds of {@code [cold]}: connect_timeout, request_timeout, retry_attempts. */
class ColdTimeoutsConfigTest {
  private static final Path BASE = Path.of("/etc/meterstore");
  private static final String TABLES = "[[tables]]\nname = \"lastgang\"\n";

  private static MeterStoreConfig parse(String cold) {
    return MeterStoreConfig.parse("[cold]\n" + cold + TABLES, BASE, Map.of());
  }

  @Test
  void defaultsAreTwoSecondsToConnectTenSecondsIdleAndThreeAttempts() {
    ColdTimeouts t = parse("").cold().timeouts();

    assertThat(t).isEqualTo(ColdTimeouts.DEFAULTS);
    assertThat(t.connectTimeout()).isEqualTo(Duration.ofSeconds(2));
    assertThat(t.requestTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(t.retryAttempts()).isEqualTo(3);
  }

  @Test
  void theKeysReachTheColdConfig() {
    MeterStoreConfig c =
        parse("connect_timeout = \"500ms\"\nrequest_timeout = \"1m\"\nretry_attempts = 1\n");
    ColdConfig cold = c.cold().toColdConfig("jdbc:postgresql://db/x", "u", null, "file:///wh");

    assertThat(cold.timeouts())
        .isEqualTo(new ColdTimeouts(Duration.ofMillis(500), Duration.ofMinutes(1), 1));
  }

  @Test
  void refusesZeroTooLongAndUnitlessTimeoutsAndAttemptsOutOfRangeNamingTheKey() {
    assertRefused("connect_timeout = \"0s\"\n", "cold.connect_timeout", "more than 0s");
    assertRefused("request_timeout = \"2h\"\n", "cold.request_timeout", "at most 10m");
    assertRefused("request_timeout = 5\n", "cold.request_timeout", "a duration with a unit");
    assertRefused("retry_attempts = 0\n", "cold.retry_attempts", "from 1 to 10");
    assertRefused("retry_attempts = 11\n", "cold.retry_attempts", "from 1 to 10");
    assertRefused("retry_attempts = \"3\"\n", "cold.retry_attempts", "a whole number");
  }

  private static void assertRefused(String line, String key, String rule) {
    assertThatThrownBy(() -> parse(line))
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG))
        .hasMessageContaining(key)
        .hasMessageContaining(rule);
  }
}
