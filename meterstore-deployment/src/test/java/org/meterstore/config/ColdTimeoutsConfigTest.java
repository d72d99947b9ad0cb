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

/**
 * The outage bounds of {@code [cold]}: connect_timeout, request_timeout, retry_attempts and
 * call_timeout.
 */
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
    assertThat(t.callTimeout()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void theKeysReachTheColdConfig() {
    MeterStoreConfig c =
        parse("connect_timeout = \"500ms\"\nrequest_timeout = \"1m\"\nretry_attempts = 1\n");
    ColdConfig cold = c.cold().toColdConfig("jdbc:postgresql://db/x", "u", null, "file:///wh");

    assertThat(cold.timeouts())
        .isEqualTo(
            new ColdTimeouts(
                Duration.ofMillis(500), Duration.ofMinutes(1), 1, Duration.ofMinutes(1)));
  }

  @Test
  void theCallBoundIsReadAndWithoutItFollowsALongerRequestTimeout() {
    assertThat(parse("call_timeout = \"2s\"\nrequest_timeout = \"1s\"\n").cold().timeouts())
        .isEqualTo(
            new ColdTimeouts(
                Duration.ofSeconds(2), Duration.ofSeconds(1), 3, Duration.ofSeconds(2)));
    assertThat(parse("request_timeout = \"45s\"\n").cold().timeouts().callTimeout())
        .isEqualTo(Duration.ofSeconds(45));
    assertThat(parse("call_timeout = \"10m\"\n").cold().timeouts().callTimeout())
        .isEqualTo(Duration.ofMinutes(10));
  }

  @Test
  void refusesACallBoundShorterThanTheRequestTimeoutZeroTooLongOrUnitless() {
    assertRefused(
        "call_timeout = \"5s\"\n", "cold.call_timeout", "at least request_timeout (PT10S)");
    assertRefused("call_timeout = \"0s\"\n", "cold.call_timeout", "more than 0s");
    assertRefused("call_timeout = \"11m\"\n", "cold.call_timeout", "at most 10m");
    assertRefused("call_timeout = 30\n", "cold.call_timeout", "a duration with a unit");
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
