package org.meterstore.api.reading;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.api.InvalidInput.assertInvalid;

import java.math.BigInteger;
import java.time.Instant;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

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

  @Property
  void everyArrivalVersionSortsBelowEveryOperatorVersion(
      @ForAll @LongRange(min = 0, max = 9_999_999_999_999L) long millis,
      @ForAll @LongRange(min = 10_000_000_000_000L) long operator) {
    Version arrival = Version.arrival(Instant.ofEpochMilli(millis));
    assertThat(arrival).isLessThan(Version.operator(operator));
  }
}
