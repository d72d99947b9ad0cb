package org.meterstore.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.meterstore.api.reading.Quality;
import org.meterstore.api.reading.Reading;

/** The pure parts of benchmark 11: locations, digests, the comparison, throughput, options. */
class PointTest {
  private static List<Integer> draw(LocationSequence s, int n) {
    return IntStream.range(0, n).mapToObj(i -> s.next()).toList();
  }

  @Test
  void bothSidesAskAboutTheSameLocationsInTheSameOrder() {
    List<Integer> meterStore = draw(new LocationSequence(7, 2, 3, 300), 1_000);
    List<Integer> postgres = draw(new LocationSequence(7, 2, 3, 300), 1_000);
    assertThat(meterStore).isEqualTo(postgres).allMatch(m -> m >= 0 && m < 300);
    assertThat(meterStore.stream().distinct().count()).isGreaterThan(250);
    assertThat(draw(new LocationSequence(7, 2, 4, 300), 1_000)).isNotEqualTo(meterStore);
    assertThat(draw(new LocationSequence(7, 1, 3, 300), 1_000)).isNotEqualTo(meterStore);
    assertThatThrownBy(() -> new LocationSequence(7, 0, 0, 0))
        .hasMessage("Invalid locations: 0 (at least 1)");
  }

  private static RowDigest.Fingerprint rows(String... values) {
    RowDigest d = new RowDigest();
    for (String v : values) {
      d.add(1_767_222_000_000L).add("1-0:1.8.0").add(new BigDecimal(v), 6).endRow();
    }
    return d.fingerprint();
  }

  @Test
  void digestsAreEqualForTheSameRowsInTheSameOrderWhateverTheDecimalScale() {
    assertThat(rows("1.5", "2.25")).isEqualTo(rows("1.500000", "2.250")).isNotEqualTo(rows("1.5"));
    assertThat(rows("1.5", "2.25")).isNotEqualTo(rows("2.25", "1.5"));
    assertThat(rows("1.5", "2.25")).isNotEqualTo(rows("1.5", "2.26"));
    assertThat(rows("1.5").rows()).isEqualTo(1);
    RowDigest nulls = new RowDigest();
    nulls.add((String) null).addMillis(null).add(null, 6).endRow();
    assertThat(nulls.fingerprint()).isNotEqualTo(new RowDigest().fingerprint());
  }

  @Test
  void answersAgreeOnlyWhenEveryLocationMatchesAndEveryExecutionRepeatsItsFirst() throws Exception {
    PointAnswers ms = new PointAnswers();
    PointAnswers pg = new PointAnswers();
    ms.record(1, rows("1.5"));
    ms.record(1, rows("1.5"));
    pg.record(1, rows("1.500"));
    ms.record(2, rows("2"));
    List<Integer> asked = new ArrayList<>();
    PointAnswers.Comparison ok =
        ms.compare(
            pg,
            m -> {
              asked.add(m);
              return rows("2");
            });
    assertThat(ok.wrong()).isFalse();
    assertThat(ok.locations()).isEqualTo(2);
    assertThat(ok.executions()).isEqualTo(3);
    assertThat(asked).containsExactly(2);
    assertThat(ok.toString()).startsWith("answers agree: 2 locations compared");

    PointAnswers.Comparison differs = ms.compare(pg, m -> rows("2.5"));
    assertThat(differs.wrong()).isTrue();
    assertThat(differs.toString()).startsWith("ANSWERS DIFFER (1): location 2: MeterStore 1 rows");

    ms.record(1, rows("1.6"));
    assertThat(ms.compare(pg, m -> rows("2")).differ()).isEqualTo(1);
    PointAnswers empty = new PointAnswers();
    empty.record(3, rows());
    assertThat(empty.compare(new PointAnswers(), m -> rows()).wrong()).isTrue();
    assertThat(new PointAnswers().compare(pg, m -> rows()).toString())
        .isEqualTo("ANSWERS NOT CHECKED: no location answered");
  }

  @Test
  void throughputSumsEachClientsRateOverItsOwnMeasuredSpan() {
    PointLoad.Client fast = new PointLoad.Client(List.of(0.1, 0.1, 0.1, 0.1), 0, 400_000_000L, 40);
    PointLoad.Client slow = new PointLoad.Client(List.of(2.0), 0, 2_000_000_000L, 10);
    PointLoad.Outcome o = PointLoad.Outcome.of(List.of(fast, slow));
    assertThat(o.throughput()).isCloseTo(10.5, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(o.latencies()).hasSize(5);
    assertThat(o.rowsPerExecution()).isEqualTo(10.0);
    assertThat(o.p(50)).isEqualTo(0.1);
    assertThat(o.p(99)).isEqualTo(2.0);
  }

  @Test
  void optionsFollowTheProfileAndTheProperties() {
    PointOptions quick = PointOptions.of(Profile.QUICK, new Properties());
    assertThat(quick)
        .isEqualTo(
            new PointOptions(
                300,
                LocalDate.of(2026, 1, 1),
                1,
                2,
                List.of(1, 4, 16),
                List.of(PointQuestion.values())));
    assertThat(quick.days()).isEqualTo(78);
    assertThat(PointOptions.of(Profile.FULL, new Properties()).locations()).isEqualTo(1_000);
    Properties p = new Properties();
    p.setProperty("bench.point.locations", "30");
    p.setProperty("bench.point.seconds", "2");
    p.setProperty("bench.point.warmup", "1");
    p.setProperty("bench.point.threads", "1, 4");
    p.setProperty("bench.point.questions", "DAILY_SUMS, COLD_MONTH");
    assertThat(PointOptions.of(Profile.FULL, p))
        .isEqualTo(
            new PointOptions(
                30,
                LocalDate.of(2025, 3, 1),
                1,
                2,
                List.of(1, 4),
                List.of(PointQuestion.DAILY_SUMS, PointQuestion.COLD_MONTH)));
    assertThatThrownBy(() -> PointOptions.threads("4,1"))
        .hasMessage(
            "Invalid bench.point.threads: 4,1 (ascending thread counts from 1 to 256,"
                + " comma-separated)");
    assertThatThrownBy(() -> PointOptions.threads("1,,4"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PointOptions.questions("COLD_MONTH,YEAR"))
        .hasMessageStartingWith("Invalid bench.point.questions: COLD_MONTH,YEAR (names of [");
    p.setProperty("bench.point.seconds", "0");
    assertThatThrownBy(() -> PointOptions.of(Profile.QUICK, p))
        .hasMessage("Invalid bench.point.seconds: 0 (a positive integer)");
  }

  @Test
  void lateCorrectionsRestateSomeOriginalsAtALaterVersionAndLeaveTheDataSetAlone() {
    Dataset d = new Dataset(5, LocalDate.of(2026, 2, 1), 28, 5, 0.03, 0.01, 11);
    LocalDate day = LocalDate.of(2026, 2, 10);
    Dataset.MeterDay before = d.meterDay(0, day);
    List<Instant> deliveries = List.of(Instant.parse("2026-04-01T05:00:00Z"));
    List<Reading> late = new ArrayList<>();
    for (LocalDate x = day; x.isBefore(day.plusDays(10)); x = x.plusDays(1)) {
      late.addAll(d.lateCorrections(0, x, 0.1, deliveries));
    }
    assertThat(d.meterDay(0, day)).isEqualTo(before);
    assertThat(late.size()).isBetween(40, 160);
    assertThat(late)
        .allMatch(r -> r.quality() == Quality.CORRECTED)
        .allMatch(r -> r.version().toString().equals("20260401050000"));
    assertThat(d.lateCorrections(0, day, 0.1, deliveries))
        .isEqualTo(d.lateCorrections(0, day, 0.1, deliveries));
  }
}
