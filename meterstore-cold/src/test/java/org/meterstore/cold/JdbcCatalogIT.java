package org.meterstore.cold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.meterstore.cold.ColdFixtures.DAY1;
import static org.meterstore.cold.ColdFixtures.DAY2;
import static org.meterstore.cold.ColdFixtures.NOW;

import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.ContentDigest;
import org.meterstore.api.table.ExtraColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.commit.ArchiveResult;
import org.meterstore.cold.commit.ArchiveStatus;
import org.meterstore.cold.commit.SummaryKeys;
import org.meterstore.cold.internal.layout.TableLayout;
import org.meterstore.cold.internal.write.SortedChunkWriter;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/** The default wiring: Iceberg's JDBC catalog on PostgreSQL and a local-filesystem warehouse. */
@ExtendWith(PostgresExtension.class)
class JdbcCatalogIT {
  @TempDir Path warehouse;
  private ColdStore store;

  @BeforeEach
  void open(TestDatabase db) {
    store = ColdStore.open(ColdFixtures.jdbc(db, warehouse).withChunkRows(100));
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void anEmptyTableHasTheEpochAsWatermark() {
    ColdTable table = store.createTable(TableDefinition.interval("empty_table"));
    assertThat(table.watermark()).isEqualTo(Instant.EPOCH);
    assertThat(table.snapshots()).isEmpty();
  }

  @Test
  void archivesAWindowAndReadsBackEveryRowWithTheWatermarkAndSummary() {
    TableDefinition def = TableDefinition.interval("lastgang");
    ColdTable table = store.createTable(def);
    List<Object[]> rows = ColdFixtures.rows(def, 3, DAY1, DAY2, 15);

    ArchiveResult result = table.archive(new ArchiveRequest(DAY1, DAY2, NOW, 7), rows);

    assertThat(result.status()).isEqualTo(ArchiveStatus.COMMITTED);
    assertThat(result.attempts()).isEqualTo(1);
    assertThat(result.digest()).isEqualTo(ContentDigest.of(def, rows.iterator()));
    assertThat(result.digest().rowCount()).isEqualTo(3 * 96);
    assertThat(table.watermark()).isEqualTo(DAY2);
    assertThat(ColdFixtures.canonical(table.read())).isEqualTo(ColdFixtures.canonical(rows));
    Map<String, String> summary = table.icebergTable().currentSnapshot().summary();
    assertThat(summary)
        .containsEntry(SummaryKeys.WATERMARK, "2026-01-02T00:00:00Z")
        .containsEntry(SummaryKeys.ARCHIVED_RANGE, "[2026-01-01T00:00:00Z, 2026-01-02T00:00:00Z)")
        .containsEntry(SummaryKeys.ROW_COUNT, "288")
        .containsEntry(SummaryKeys.ARCHIVED_AT, NOW.toString())
        .containsEntry(SummaryKeys.ARCHIVAL_STEP, "PT24H")
        .containsEntry(SummaryKeys.LEASE_EPOCH, "7")
        .containsEntry(SummaryKeys.DIGEST, result.digest().toSummaryValue())
        .containsEntry(SummaryKeys.OPERATION, "archive");
  }

  @Test
  void recordsTheArchivalStepAndCountsCommitAttemptsThroughTheInjectedOpenTelemetry(
      TestDatabase db) {
    InMemoryMetricReader metrics = InMemoryMetricReader.create();
    OpenTelemetrySdk otel =
        OpenTelemetrySdk.builder()
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
            .build();
    TableDefinition def =
        TableDefinition.interval("metered")
            .withPolicy(TablePolicy.DEFAULTS.withArchivalStep(Duration.ofHours(6)));
    try (ColdStore metered = ColdStore.open(ColdFixtures.jdbc(db, warehouse), otel)) {
      ColdTable table = metered.createTable(def);
      assertThat(table.recordedArchivalStep()).contains(Duration.ofHours(6));
      table.archive(
          new ArchiveRequest(DAY1, DAY1.plus(Duration.ofHours(6)), NOW, 1),
          ColdFixtures.rows(def, 1, DAY1, DAY1.plus(Duration.ofHours(6)), 60));
    }
    MetricData data =
        metrics.collectAllMetrics().stream()
            .filter(m -> m.getName().equals("meterstore.cold.commit_attempts"))
            .findFirst()
            .orElseThrow();
    assertThat(data.getLongSumData().getPoints())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.getValue()).isEqualTo(1);
              assertThat(p.getAttributes().asMap().values()).contains("metered", "committed");
            });
    otel.close();
  }

  @Test
  void everyParquetFileIsSortedByMaloAndFrom() throws IOException {
    TableDefinition def = TableDefinition.interval("sorted_files");
    ColdTable table = store.createTable(def);
    table.archive(
        new ArchiveRequest(DAY1, DAY2, NOW, 1), ColdFixtures.rows(def, 4, DAY1, DAY2, 15));
    Table iceberg = table.icebergTable();
    int files = 0;
    try (CloseableIterable<FileScanTask> tasks = iceberg.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        files++;
        assertThat(task.file().location()).endsWith(".parquet");
        assertThat(task.file().sortOrderId()).isEqualTo(iceberg.sortOrder().orderId());
        ColdFixtures.assertSorted(ColdFixtures.readFile(iceberg, task.file().location()));
      }
    }
    // 384 rows in chunks of 100: one file per chunk in the single month partition.
    assertThat(files).isEqualTo(4);
    try (Stream<Path> onDisk = Files.walk(warehouse)) {
      assertThat(onDisk.filter(p -> p.toString().endsWith(".parquet")).count()).isEqualTo(4);
    }
  }

  @Test
  void createsTheLayoutOfTheDefinition() {
    TableDefinition def =
        TableDefinition.interval("layout")
            .withExtraColumns(List.of(ExtraColumn.identity("tenant")));
    Table t = store.createTable(def).icebergTable();
    assertThat(t.spec().fields()).hasSize(2);
    assertThat(t.spec().fields().get(0).transform().toString()).isEqualTo("identity");
    assertThat(t.schema().findColumnName(t.spec().fields().get(0).sourceId())).isEqualTo("tenant");
    assertThat(t.spec().fields().get(1).transform().toString()).isEqualTo("month");
    assertThat(t.sortOrder().fields()).hasSize(2);
    assertThat(t.schema().findField("malo_id").isRequired()).isTrue();
    assertThat(t.schema().findField("melo_id").isOptional()).isTrue();
    assertThat(t.schema().findField("value").type().toString()).isEqualTo("decimal(18, 6)");
    assertThat(t.schema().findField("from").type().toString()).isEqualTo("timestamptz");
    assertThat(((HasTableOperations) t).operations().current().formatVersion()).isEqualTo(2);
    assertThat(t.properties())
        .containsEntry("write.parquet.compression-codec", "zstd")
        .containsEntry("write.parquet.bloom-filter-enabled.column.malo_id", "true")
        .containsEntry("write.parquet.bloom-filter-enabled.column.obis_code", "true")
        .containsEntry("write.parquet.bloom-filter-fpp.column.malo_id", "0.01")
        .containsEntry("write.parquet.page-version", "v2")
        .containsEntry("write.parquet.dict-encoding-enabled.column.from", "false")
        .doesNotContainKey("write.parquet.dict-encoding-enabled.column.value")
        .containsEntry("commit.retry.num-retries", "0")
        .containsEntry("write.target-file-size-bytes", Long.toString(128L * 1024 * 1024));
  }

  @Test
  void rowsAcrossAMonthBoundaryAndTwoTenantsLandInTheirOwnPartitions() throws IOException {
    TableDefinition def =
        TableDefinition.interval("mandanten")
            .withExtraColumns(List.of(ExtraColumn.identity("tenant")));
    ColdTable table = store.createTable(def);
    Instant from = Instant.parse("2026-01-31T00:00:00Z");
    Instant to = Instant.parse("2026-02-02T00:00:00Z");
    List<Object[]> plain =
        ColdFixtures.rows(TableDefinition.interval("mandanten"), 4, from, to, 15);
    int tenant = def.columns().stream().map(c -> c.name()).toList().indexOf("tenant");
    assertThat(tenant).isEqualTo(plain.get(0).length);
    List<Object[]> rows = new ArrayList<>();
    for (int i = 0; i < plain.size(); i++) {
      // Meters alternate between tenants, and the rows come newest first: every row changes
      // partition key against the one before, and the months change half way.
      Object[] row = Arrays.copyOf(plain.get(i), tenant + 1);
      row[tenant] = i % 2 == 0 ? "nord" : "sued";
      rows.add(row);
    }

    table.archive(new ArchiveRequest(from, to, NOW, 1), rows);

    assertThat(ColdFixtures.canonical(table.read())).isEqualTo(ColdFixtures.canonical(rows));
    Table iceberg = table.icebergTable();
    assertThat(SortedChunkWriter.monthly(iceberg, def)).isTrue();
    List<String> partitions = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = iceberg.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        String fileTenant = task.file().partition().get(0, CharSequence.class).toString();
        int fileMonth = task.file().partition().get(1, Integer.class);
        partitions.add(fileTenant + "/" + fileMonth);
        List<Record> records = ColdFixtures.readFile(iceberg, task.file().location());
        ColdFixtures.assertSorted(records);
        for (Record r : records) {
          OffsetDateTime t = (OffsetDateTime) r.getField("from");
          assertThat(r.getField("tenant")).isEqualTo(fileTenant);
          assertThat((t.getYear() - 1970) * 12 + t.getMonthValue() - 1).isEqualTo(fileMonth);
        }
      }
    }
    // Chunks of 100 rows: several files per partition, each holding that partition's rows only.
    assertThat(partitions).containsOnly("nord/672", "nord/673", "sued/672", "sued/673");
  }

  @Test
  void aSpecOtherThanMeterStoresIsNotTakenForMonthly() {
    TableDefinition def = TableDefinition.interval("daily_spec");
    Schema schema = TableLayout.schema(def);
    Table daily =
        store
            .catalog()
            .createTable(
                store.identifier("daily_spec"),
                schema,
                PartitionSpec.builderFor(schema).day("from").build(),
                Map.of("format-version", "2"));
    assertThat(SortedChunkWriter.monthly(daily, def)).isFalse();
    Table monthly = store.createTable(TableDefinition.interval("monthly_spec")).icebergTable();
    assertThat(SortedChunkWriter.monthly(monthly, def)).isTrue();
  }

  @Test
  void refusesAnExistingTableWhosePartitionSpecDisagrees() {
    TableDefinition def = TableDefinition.interval("foreign_spec");
    Schema schema = TableLayout.schema(def);
    store
        .catalog()
        .createTable(
            store.identifier("foreign_spec"),
            schema,
            PartitionSpec.builderFor(schema).day("from").build(),
            Map.of("format-version", "2"));
    assertThatThrownBy(() -> store.createTable(def))
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.CONFIG))
        .hasMessageContaining("foreign_spec")
        .hasMessageContaining("partition spec [day(from)], expected [month(from)]")
        .hasMessageContaining("sort order");
  }

  @Test
  void reopeningATableKeepsItsHistory() {
    TableDefinition def = TableDefinition.interval("reopened");
    ColdTable first = store.createTable(def);
    first.archive(
        new ArchiveRequest(DAY1, DAY2, NOW, 1), ColdFixtures.rows(def, 1, DAY1, DAY2, 60));
    ColdTable again = store.createTable(def);
    assertThat(again.snapshots()).hasSize(1);
    assertThat(again.watermark()).isEqualTo(DAY2);
  }

  @Test
  void aRowOutsideTheWindowCommitsNothingAndLeavesNoFiles() throws IOException {
    TableDefinition def = TableDefinition.interval("outside");
    ColdTable table = store.createTable(def);
    List<Object[]> rows = new ArrayList<>(ColdFixtures.rows(def, 2, DAY1, DAY2, 15));
    rows.addAll(ColdFixtures.rows(def, 1, DAY2, DAY2.plusSeconds(900), 15));

    assertThatThrownBy(() -> table.archive(new ArchiveRequest(DAY1, DAY2, NOW, 1), rows))
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
        .hasMessageContaining("outside the archival window");
    assertThat(table.watermark()).isEqualTo(Instant.EPOCH);
    assertThat(parquetFiles(warehouse.resolve("meterstore").resolve("outside"))).isZero();
  }

  static long parquetFiles(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return 0;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(p -> p.toString().endsWith(".parquet")).count();
    }
  }
}
