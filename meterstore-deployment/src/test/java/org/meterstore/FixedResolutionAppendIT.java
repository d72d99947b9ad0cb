package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.reading.Tier;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.snapshot.SnapshotInfo;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

/**
 * A fixed-resolution table's grid holds wherever its readings are accepted: {@code append} (both
 * the part routed hot and a late correction routed cold), {@code hotWriter}, and the cold tier's
 * correction append itself. A refused batch writes neither tier.
 */
@ExtendWith(PostgresExtension.class)
class FixedResolutionAppendIT {
  private static final Instant CREATED = Instant.parse("2026-03-01T00:00:00Z");
  private static final Instant MAR2 = Instant.parse("2026-03-02T00:00:00Z");
  private static final Instant MAR3 = Instant.parse("2026-03-03T00:00:00Z");
  private static final Instant MAR4 = Instant.parse("2026-03-04T00:00:00Z");
  private static final Instant AT = MAR4.plus(Duration.ofMinutes(10));

  @TempDir static Path warehouse;
  private static CatalogFixture d;
  private static TableDefinition table;
  private static MeterCatalog catalog;

  @BeforeAll
  static void open(TestDatabase db) {
    d = new CatalogFixture(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
    table =
        CatalogFixture.table("fixed", Duration.ofDays(1), Duration.ofHours(1))
            .withResolution(Resolution.PT15M);
    catalog = d.catalog(List.of(table), OpenTelemetry.noop());
    catalog.createTables(CREATED);
    List<Reading> batch = new ArrayList<>();
    for (Instant day : List.of(MAR2, MAR3)) {
      batch.add(reading(1, day, 15, 1));
    }
    assertThat(catalog.table(table.name()).append(batch, CREATED).tiers()).containsOnly(Tier.HOT);
    assertThat(catalog.archive(MAR4, 8).healthy()).isTrue();
    assertThat(catalog.table(table.name()).watermark()).isEqualTo(MAR3);
  }

  @AfterAll
  static void close() {
    catalog.close();
    d.close();
  }

  @Test
  void appendRefusesALateCorrectionOffTheGridAndWritesNeitherTier() throws Exception {
    long coldBefore = coldRows();
    List<Reading> batch = List.of(reading(1, MAR3, 15, 2), reading(1, MAR2, 30, 2));
    refusedByTheGrid(() -> catalog.table(table.name()).append(batch, AT));
    assertThat(coldRows()).isEqualTo(coldBefore);
    assertThat(d.scalar("SELECT count(*) FROM meterstore.fixed WHERE version = 2")).isZero();
  }

  @Test
  void appendRoutesALateCorrectionOnTheGridToTheColdTier() {
    WriteResult r = catalog.table(table.name()).append(List.of(reading(1, MAR2, 15, 3)), AT);
    assertThat(r.tiers()).containsExactly(Tier.COLD);
    assertThat(r.outcomes()).containsExactly(WriteOutcome.SUPERSEDED);
  }

  @Test
  void theHotWriterRefusesAReadingOffTheGrid() {
    HotWriter writer = catalog.table(table.name()).hotWriter();
    refusedByTheGrid(() -> writer.write(List.of(reading(1, MAR3.plusSeconds(60), 15, 2)), AT));
  }

  @Test
  void theColdTiersCorrectionAppendRefusesAReadingOffTheGrid() {
    long coldBefore = coldRows();
    refusedByTheGrid(
        () ->
            Tiers.coldTable(catalog, table.name())
                .appendCorrections(List.of(StoredReading.accept(reading(1, MAR2, 60, 4), AT)), AT));
    assertThat(coldRows()).isEqualTo(coldBefore);
  }

  private static void refusedByTheGrid(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
    MeterStoreException e = catchThrowableOfType(MeterStoreException.class, call);
    assertThat(e).as("refused").isNotNull();
    assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT);
    assertThat(e.getMessage())
        .contains("table fixed holds one PT15M interval per reading", TableDefinition.GRID_RULE);
  }

  private static long coldRows() {
    return Tiers.coldTable(catalog, table.name()).snapshots().stream()
        .max(java.util.Comparator.comparingLong(SnapshotInfo::sequenceNumber))
        .map(SnapshotInfo::totalRows)
        .orElse(0L);
  }

  private static Reading reading(int meter, Instant from, int minutes, int version) {
    return Reading.builder()
        .malo(Workload.malo(meter))
        .obis("1-0:1.8.0")
        .commodity(Commodity.STROM)
        .interval(from, from.plus(Duration.ofMinutes(minutes)))
        .value("1")
        .version("2026030" + version + "000000")
        .operator(Workload.OPERATOR)
        .build();
  }
}
