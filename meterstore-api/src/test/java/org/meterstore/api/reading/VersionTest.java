package org.meterstore.api.reading;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.api.InvalidInput.assertInvalid;

import java.math.BigInteger;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.meterstore.api.Samples;

class VersionTest {
  @Test
  void operatorVersionsHaveFourteenToTwentyDigits() {
    assertThat(Version.operator("20260502080000").isOperatorVersion()).isTrue();
    assertThat(Version.operator("99999999999999999999").value())
        .isEqualTo(new BigInteger("99999999999999999999"));
    assertInvalid(() -> Version.operator("2026050208000"), "version", "14 to 20 digits");
    assertInvalid(() -> Version.operator("100000000000000000000"), "14 to 20 digits");
    assertInvalid(() -> Version.operator("-20260502080000"), "14 to 20 digits");
    assertInvalid(() -> Version.operator(null), "version");
  }

  @Test
  void anArrivalVersionIsTheEpochMillisecondsOfRecordedAt() {
    Instant at = Instant.parse("2026-11-29T12:00:00.123Z");
    Version v = Version.arrival(at);
    assertThat(v.value()).isEqualTo(BigInteger.valueOf(at.toEpochMilli()));
    assertThat(v.toString()).hasSize(13);
    assertThat(v.isOperatorVersion()).isFalse();
    assertInvalid(() -> Version.arrival(Instant.parse("1969-12-31T23:59:59Z")), "recorded_at");
    assertInvalid(() -> Version.arrival(Instant.parse("2287-01-01T00:00:00Z")), "recorded_at");
  }

  static Stream<Arguments> arrivalsAndOperatorVersions() {
    return Samples.of(
        31,
        1_000,
        r ->
            Arguments.of(
                (long) (r.nextDouble() * 10_000_000_000_000L),
                10_000_000_000_000L + (long) (r.nextDouble() * (Long.MAX_VALUE - 1e13))));
  }

  @ParameterizedTest
  @MethodSource("arrivalsAndOperatorVersions")
  void everyArrivalVersionSortsBelowEveryOperatorVersion(long millis, long operator) {
    Version arrival = Version.arrival(Instant.ofEpochMilli(millis));
    assertThat(arrival).isLessThan(Version.operator(operator));
  }
}
