package org.meterstore.api.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;

class StoredRowTest {
  @Test
  void aGasReadingIsStampedWithItsGasDayAndAnArrivalVersion() {
    Instant now = Instant.parse("2026-03-30T08:00:00Z");
    Reading gas =
        TableDefinitionTest.quarterHour()
            .commodity(Commodity.GAS)
            .interval(Instant.parse("2026-03-29T01:30:00Z"), Instant.parse("2026-03-29T01:45:00Z"))
            .build();
    StoredReading stored = StoredReading.accept(gas, now);
    assertThat(stored.balancingDay()).isEqualTo(LocalDate.parse("2026-03-28"));
    assertThat(stored.version().value().longValueExact()).isEqualTo(now.toEpochMilli());
    assertThat(stored.recordedAt()).isEqualTo(now);
  }

  @Test
  void theRowFollowsTheTablesColumnOrderAndTypes() {
    TableDefinition t =
        TableDefinition.interval("lastgang")
            .withExtraColumns(List.of(ExtraColumn.identity("tenant")))
            .withSubjectColumn("subject_ref");
    Reading r =
        TableDefinitionTest.quarterHour()
            .version("20260502080000")
            .extra("tenant", "sw")
            .subject("ref-1")
            .build();
    Object[] row = StoredRow.of(t, StoredReading.accept(r, Instant.parse("2026-05-02T09:00:00Z")));
    List<ColumnSpec> columns = t.columns();
    assertThat(row).hasSize(columns.size());
    assertThat(row[0]).isEqualTo("51238696781");
    assertThat(row[1]).isNull();
    assertThat(row[2]).isEqualTo("1-0:1.8.0");
    assertThat(row[3]).isEqualTo("STROM");
    assertThat(row[4]).isEqualTo(r.from());
    assertThat(row[6]).isEqualTo(new BigDecimal("1.000000"));
    assertThat(row[10]).isEqualTo(new BigDecimal("20260502080000"));
    assertThat(row[11]).isEqualTo("9900000000003:2026-05");
    assertThat(row[13]).isEqualTo(LocalDate.parse("2026-05-01"));
    assertThat(row[columns.size() - 2]).isEqualTo("sw");
    assertThat(row[columns.size() - 1]).isEqualTo("ref-1");
  }
}
