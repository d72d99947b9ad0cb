package org.meterstore.api.calendar;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.api.InvalidInput.assertInvalidMessage;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.meterstore.api.MeterStoreException;

class ResolutionTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "PT15M, PT15M",
    "PT900S, PT15M",
    "PT60S, PT1M",
    "PT3600S, PT1H",
    "PT60M, PT1H",
    "PT30S, PT30S",
    "PT1S, PT1S",
    "PT90M, PT1H30M",
    "PT5400S, PT1H30M",
    "PT720M, PT12H",
    "PT24H, P1D",
    "PT1440M, P1D",
    "P1DT0H, P1D",
    "P1D, P1D",
    "P1M, P1M",
    "P1Y, P1Y",
    "P12M, P1Y",
    "pt15m, PT15M",
    "pt900s, PT15M",
    "p1d, P1D",
    "p1m, P1M",
    "p1y, P1Y",
    "'  PT1H ', PT1H",
  })
  void canonicalisesToTheLargestUnitsThatRepresentItExactly(String text, String canonical) {
    Resolution resolution = Resolution.parse(text);

    assertThat(resolution.toString()).isEqualTo(canonical);
    assertThat(resolution.iso()).isEqualTo(canonical);
    assertThat(resolution).isEqualTo(Resolution.parse(canonical));
  }

  @Test
  void dividesAnHourExactlyWhenItsSecondsDivide3600() {
    for (int seconds = 1; seconds < 86_400; seconds++) {
      if (86_400 % seconds != 0) {
        continue;
      }
      Resolution r = Resolution.parse("PT" + seconds + "S");
      assertThat(r.dividesAnHour()).as(r.toString()).isEqualTo(3600 % seconds == 0);
      assertThat(r.hourDivisorSeconds())
          .as(r.toString())
          .isEqualTo(3600 % seconds == 0 ? seconds : 0);
    }
    for (Resolution r : new Resolution[] {Resolution.P1D, Resolution.P1M, Resolution.P1Y}) {
      assertThat(r.dividesAnHour()).isFalse();
    }
  }

  @Test
  void constructorStoresTheCanonicalFormSoEqualResolutionsAreEqualRecords() {
    assertThat(new Resolution("PT900S")).isEqualTo(Resolution.PT15M);
    assertThat(new Resolution("pt3600s"))
        .isEqualTo(Resolution.PT1H)
        .hasSameHashCodeAs(Resolution.PT1H);
    assertThat(new Resolution("PT24H")).isEqualTo(Resolution.P1D);
    assertThat(Resolution.PT15M).isNotEqualTo(Resolution.PT1H);
  }

  @Test
  void constantsPrintTheirOwnNames() {
    assertThat(
            List.of(
                Resolution.PT15M, Resolution.PT1H, Resolution.P1D, Resolution.P1M, Resolution.P1Y))
        .extracting(Resolution::toString)
        .containsExactly("PT15M", "PT1H", "P1D", "P1M", "P1Y");
  }

  @Test
  void acceptsExactlyTheWholeSecondDurationsThatDivideADay() {
    List<Long> accepted = new ArrayList<>();
    for (long seconds = 1; seconds <= 86_400; seconds++) {
      try {
        Resolution resolution = Resolution.parse("PT" + seconds + "S");
        accepted.add(seconds);
        if (seconds < 86_400) {
          assertThat(resolution.fixedLength()).contains(Duration.ofSeconds(seconds));
          assertThat(Resolution.parse(resolution.toString())).isEqualTo(resolution);
        } else {
          assertThat(resolution).isEqualTo(Resolution.P1D);
        }
      } catch (MeterStoreException refused) {
        assertThat(86_400 % seconds).as("refused %s s", seconds).isNotZero();
      }
    }
    // 86 400 = 2^7 * 3^3 * 5^2 has 8 * 4 * 3 = 96 divisors.
    assertThat(accepted).hasSize(96).allMatch(seconds -> 86_400 % seconds == 0);
  }

  @ParameterizedTest
  @ValueSource(strings = {"PT7M", "PT5H", "PT7H", "PT25H", "PT48H", "P2D", "PT11S", "PT1H1M"})
  void refusesDurationsThatDoNotDivideADay(String text) {
    assertInvalidMessage(
        () -> Resolution.parse(text),
        "Invalid resolution: '" + text + "' (must divide a day exactly)");
  }

  @ParameterizedTest
  @ValueSource(strings = {"PT0.5S", "PT14M59.5S", "PT0,5S"})
  void refusesFractionsOfASecond(String text) {
    assertInvalidMessage(
        () -> Resolution.parse(text), "Invalid resolution: '" + text + "' (must be whole seconds)");
  }

  @ParameterizedTest
  @ValueSource(strings = {"PT0S", "P0D", "-PT15M", "PT-15M", "PT1H-45M", "-P1M", "P2Y-12M"})
  void refusesZeroAndNegativeDurations(String text) {
    assertInvalidMessage(
        () -> Resolution.parse(text), "Invalid resolution: '" + text + "' (must be positive)");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "P1W",
        "P2M",
        "P3M",
        "P6M",
        "P2Y",
        "P1Y1M",
        "P1M1D",
        "P0M",
        "",
        " ",
        "15min",
        "PT",
        "P",
        "PT15",
        "quarter hour",
        "P-",
        "P1.5M"
      })
  void refusesWhatIsNotOneOfTheAcceptedForms(String text) {
    assertInvalidMessage(
        () -> Resolution.parse(text),
        "Invalid resolution: '"
            + text
            + "' (a positive ISO-8601 duration of whole seconds that divides a day exactly, P1D,"
            + " P1M or P1Y)");
  }

  @Test
  void refusesNullWithATypedError() {
    assertInvalidMessage(
        () -> Resolution.parse(null),
        "Invalid resolution: null (a positive ISO-8601 duration of whole seconds that divides a"
            + " day exactly, P1D, P1M or P1Y)");
    assertInvalidMessage(
        () -> new Resolution(null),
        "Invalid resolution: null (a positive ISO-8601 duration of whole seconds that divides a"
            + " day exactly, P1D, P1M or P1Y)");
  }

  @Test
  void subDailyResolutionsHaveAFixedLength() {
    assertThat(Resolution.PT15M.isSubDaily()).isTrue();
    assertThat(Resolution.PT15M.isCalendar()).isFalse();
    assertThat(Resolution.PT15M.fixedLength()).contains(Duration.ofMinutes(15));
    assertThat(Resolution.parse("PT12H").fixedLength()).contains(Duration.ofHours(12));
    assertThat(Resolution.parse("PT1S").fixedLength()).contains(Duration.ofSeconds(1));
  }

  @Test
  void aDayIsNeitherSubDailyNorCalendarAndHasNoFixedLength() {
    assertThat(Resolution.P1D.isSubDaily()).isFalse();
    assertThat(Resolution.P1D.isCalendar()).isFalse();
    assertThat(Resolution.P1D.fixedLength()).isEmpty();
  }

  @Test
  void monthsAndYearsAreCalendarResolutionsWithoutFixedLength() {
    for (Resolution resolution : List.of(Resolution.P1M, Resolution.P1Y)) {
      assertThat(resolution.isCalendar()).as("%s", resolution).isTrue();
      assertThat(resolution.isSubDaily()).as("%s", resolution).isFalse();
      assertThat(resolution.fixedLength()).as("%s", resolution).isEmpty();
    }
  }
}
