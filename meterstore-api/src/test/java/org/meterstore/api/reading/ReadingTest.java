package org.meterstore.api.reading;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.api.InvalidInput.assertInvalid;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.commodity.Unit;

class ReadingTest {
  static final String MALO = "51238696781";
  static final String OPERATOR = "9900000000003";

  static ReadingBuilder quarterHour(String from) {
    return Reading.builder()
        .malo(MALO)
        .obis("1-0:1.8.0")
        .commodity(Commodity.STROM)
        .interval(Instant.parse(from), Resolution.PT15M)
        .value("1.25")
        .operator(OPERATOR);
  }

  @Test
  void buildsACanonicalReadingAndDerivesItsScopeFromTheBalancingMonth() {
    Reading r = quarterHour("2026-03-31T21:45:00Z").obis("1.0.1.8.0.255").build();
    assertThat(r.obisCode().toString()).isEqualTo("1-0:1.8.0");
    assertThat(r.to()).isEqualTo(Instant.parse("2026-03-31T22:00:00Z"));
    assertThat(r.unit()).isEqualTo(Unit.KWH);
    assertThat(r.value()).isEqualTo(new BigDecimal("1.250000"));
    assertThat(r.version()).isNull();
    // 23:45 local on 31 March is still March; 00:00 local on 1 April is April.
    assertThat(r.versionScope().toString()).isEqualTo(OPERATOR + ":2026-03");
    Reading next = quarterHour("2026-03-31T22:00:00Z").build();
    assertThat(next.versionScope().toString()).isEqualTo(OPERATOR + ":2026-04");
  }

  @Test
  void aGasIntervalBeforeSixOnTheFirstBelongsToThePreviousMonth() {
    ReadingBuilder gas =
        quarterHour("2026-04-01T03:45:00Z").commodity(Commodity.GAS).unit(Unit.KWH);
    assertThat(gas.build().versionScope().toString()).isEqualTo(OPERATOR + ":2026-03");
    assertInvalid(
        () -> gas.versionScope(OPERATOR + ":2026-04").build(),
        "version_scope",
        OPERATOR + ":2026-04",
        "does not cover");
  }

  @Test
  void refusesAnIntervalThatEndsBeforeItStarts() {
    Instant t = Instant.parse("2026-05-01T10:00:00Z");
    assertInvalid(
        () -> quarterHour("2026-05-01T10:00:00Z").resolution(null).interval(t, t).build(),
        "to",
        "after from");
  }

  @Test
  void refusesAUnitTheCommodityIsNotMeasuredIn() {
    assertInvalid(
        () -> quarterHour("2026-05-01T10:00:00Z").unit(Unit.M3).build(), "unit", "M3", "STROM");
  }

  @Test
  void refusesAnIntervalOffItsResolutionGrid() {
    assertInvalid(
        () -> quarterHour("2026-05-01T10:05:00Z").build(), "interval", "PT15M", "aligned");
    Instant from = Instant.parse("2026-05-01T10:00:00Z");
    assertInvalid(
        () ->
            quarterHour("2026-05-01T10:00:00Z")
                .interval(from, from.plusSeconds(1800))
                .resolution(Resolution.PT15M)
                .build(),
        "aligned");
  }

  @Test
  void refusesValuesWithMoreThanSixDecimalsOrEighteenDigits() {
    assertInvalid(
        () -> quarterHour("2026-05-01T10:00:00Z").value("0.0000001").build(),
        "value",
        "0.0000001",
        "6 decimals");
    assertInvalid(
        () -> quarterHour("2026-05-01T10:00:00Z").value("1000000000000").build(),
        "value",
        "18 digits");
    assertThat(
            quarterHour("2026-05-01T10:00:00Z")
                .value("999999999999.999999000")
                .build()
                .value()
                .toPlainString())
        .isEqualTo("999999999999.999999");
  }

  @Test
  void everyValueIsJudgedByTheRuleWhateverItsScale() {
    Random random = new Random(11);
    for (int i = 0; i < 20_000; i++) {
      long unscaled = random.nextLong() / (1L << random.nextInt(63));
      int scale = random.nextInt(14) - 3;
      BigDecimal v = BigDecimal.valueOf(unscaled, scale);
      BigDecimal stripped = v.stripTrailingZeros();
      boolean allowed =
          stripped.scale() <= 6 && stripped.abs().compareTo(Reading.MAX_ABS_VALUE) <= 0;
      var builder = quarterHour("2026-05-01T10:00:00Z").value(v);
      if (allowed) {
        assertThat(builder.build().value()).isEqualTo(v.setScale(6));
      } else {
        assertInvalid(builder::build, "value");
      }
    }
    for (String edge : new String[] {"999999999999.999999", "-999999999999.9", "0.850000", "7"}) {
      assertThat(quarterHour("2026-05-01T10:00:00Z").value(edge).build().value())
          .isEqualTo(new BigDecimal(edge).setScale(6));
    }
    assertInvalid(
        () -> quarterHour("2026-05-01T10:00:00Z").value("1000000000000.5").build(), "18 digits");
  }

  @Test
  void refusesNonFiniteAndUnparseableValues() {
    assertInvalid(() -> quarterHour("2026-05-01T10:00:00Z").value(Double.NaN), "finite");
    assertInvalid(
        () -> quarterHour("2026-05-01T10:00:00Z").value(Double.POSITIVE_INFINITY), "finite");
    assertInvalid(() -> quarterHour("2026-05-01T10:00:00Z").value("1,5"), "value", "1,5");
  }

  @Test
  void refusesMissingRequiredFields() {
    assertInvalid(
        () -> quarterHour("2026-05-01T10:00:00Z").malo((org.meterstore.api.id.MaloId) null).build(),
        "malo_id",
        "required");
    assertInvalid(
        () -> quarterHour("2026-05-01T10:00:00Z").value((BigDecimal) null).build(),
        "value",
        "required");
    assertInvalid(
        () ->
            Reading.builder()
                .malo(MALO)
                .obis("1-0:1.8.0")
                .commodity(Commodity.STROM)
                .interval(Instant.parse("2026-05-01T10:00:00Z"), Resolution.PT15M)
                .value("1")
                .build(),
        "version_scope",
        "required");
  }

  @Test
  void keepsAnOperatorVersionAndDerivesVariants() {
    Reading r = quarterHour("2026-05-01T10:00:00Z").version("20260502080000").build();
    Reading corrected = r.toBuilder().version("20260503080000").value("1.5").build();
    assertThat(corrected.version()).isGreaterThan(r.version());
    assertThat(corrected.from()).isEqualTo(r.from());
    assertThat(corrected.value()).isEqualByComparingTo("1.5");
    assertThat(r.toString()).contains(MALO, "1-0:1.8.0", "2026-05-01T10:00:00Z", "20260502080000");
  }

  @Test
  void atBuildsAPointReadingThatAPointTableAccepts() {
    Instant read = Instant.parse("2026-05-01T05:00:00Z");
    Reading register =
        Reading.builder()
            .malo(MALO)
            .melo("DE0001234567890123456789012345678")
            .obis("1-0:1.8.0")
            .commodity(Commodity.STROM)
            .at(read)
            .value("18342.5")
            .operator(OPERATOR)
            .build();
    assertThat(register.isPoint()).isTrue();
    assertThat(register.from()).isEqualTo(read);
    assertThat(register.to()).isNull();
    assertThat(register.versionScope().toString()).isEqualTo(OPERATOR + ":2026-05");
    assertThat(org.meterstore.api.table.TableDefinition.point("zaehlerstand").accept(register))
        .isEmpty();
    assertInvalid(
        () -> org.meterstore.api.table.TableDefinition.interval("lastgang").accept(register),
        "INTERVAL");
  }

  @Test
  void atReplacesAnIntervalSetBefore() {
    Reading r =
        quarterHour("2026-05-01T10:00:00Z")
            .resolution(null)
            .at(Instant.parse("2026-05-01T10:00:00Z"))
            .build();
    assertThat(r.isPoint()).isTrue();
    assertThat(r.to()).isNull();
  }
}
