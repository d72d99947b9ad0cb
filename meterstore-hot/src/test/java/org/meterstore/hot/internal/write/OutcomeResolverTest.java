package org.meterstore.hot.internal.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.Fixtures;

class OutcomeResolverTest {
  private static final TableDefinition TABLE = TableDefinition.interval("lastgang");
  private static final Instant FROM = Fixtures.DAY;
  private static final Instant NOW = Fixtures.NOW;

  @Test
  void ranksVersionsDeliveredInOneBatchAsIfDeliveredOneByOne() {
    List<BatchRow> rows =
        rows(
            reading("1", "20260302000000"),
            reading("2", "20260304000000"),
            reading("3", "20260303000000"),
            reading("2", "20260304000000"));
    OutcomeResolver resolver = new OutcomeResolver("lastgang", NOW, Map.of());
    rows.forEach(resolver::accept);
    assertThat(resolver.outcomes())
        .containsExactly(
            WriteOutcome.INSERTED,
            WriteOutcome.SUPERSEDED,
            WriteOutcome.SHADOWED,
            WriteOutcome.DUPLICATE);
    assertThat(resolver.toInsert()).extracting(BatchRow::index).containsExactly(0, 1, 2);
  }

  @Test
  void refusesARestatedValueAndASecondOperatorNamingTheReading() {
    List<BatchRow> rows = rows(reading("1", "20260302000000"), reading("9", "20260302000000"));
    OutcomeResolver resolver = new OutcomeResolver("lastgang", NOW, Map.of());
    resolver.accept(rows.get(0));
    MeterStoreException restated =
        catchThrowableOfType(MeterStoreException.class, () -> resolver.accept(rows.get(1)));
    assertThat(restated.kind()).isEqualTo(ErrorKind.INTEGRITY_VIOLATION);
    assertThat(restated.getMessage())
        .contains("table lastgang", "reading #1", "(value restated under an existing version)");

    BatchRow other =
        rows(Fixtures.quarterHour(1, FROM, "1", "20260305000000")
                .operator(Fixtures.OTHER_OPERATOR)
                .build())
            .get(0);
    MeterStoreException operator =
        catchThrowableOfType(MeterStoreException.class, () -> resolver.accept(other));
    assertThat(operator.getMessage()).contains("(constraint one_operator_per_reading)");
  }

  @Test
  void findsOverlappingSpansOfOneVersionWithinABatchWhateverTheirOrder() {
    Instant from = FROM.plus(Duration.ofMinutes(5));
    Reading shifted =
        reading("1", "20260302000000").toBuilder()
            .resolution(null)
            .interval(from, from.plus(Duration.ofMinutes(15)))
            .build();
    List<BatchRow> rows = rows(shifted, reading("1", "20260302000000"));
    MeterStoreException e =
        catchThrowableOfType(MeterStoreException.class, () -> SpanOverlaps.check("lastgang", rows));
    assertThat(e.getMessage()).contains("reading #1", "overlaps reading #0 of the same batch");
    SpanOverlaps.check("lastgang", rows(reading("1", "20260302000000")));
  }

  private static Reading reading(String value, String version) {
    return Fixtures.quarterHour(1, FROM, value, version).build();
  }

  private static List<BatchRow> rows(Reading... readings) {
    return new BatchPreparer(new TableLayout(TABLE)).prepare(List.of(readings), NOW, null);
  }
}
