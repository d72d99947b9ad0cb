package org.meterstore.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortField;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.Tiers;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * Apache Spark (local mode, Iceberg's Spark runtime, in a JVM of its own: {@link SparkSql}) reads
 * MeterStore's table through the same Iceberg JDBC catalog and the hot tier through Spark's JDBC
 * table catalog, and reproduces MeterStore's answers with the SQL MeterStore publishes: {@code
 * resolution_sql_spark} of {@code "system".resolution} for the cold part and {@code spark_sql} of
 * {@code "system".seam} for both tiers. It also sees the layout MeterStore created (field ids,
 * decimal types, partition spec, sort order, format version) and W in the snapshot summary.
 */
@ExtendWith(PostgresExtension.class)
class SparkInteropIT {
  private static final String TABLE = "meterstore.meterstore." + InteropStore.TABLE;

  @TempDir static Path warehouse;

  private static InteropStore store;
  private static InteropStore.Seam seam;
  private static Table iceberg;
  private static Map<String, SparkSql.Result> spark;

  @BeforeAll
  static void build(TestDatabase db) throws Exception {
    store = InteropStore.build(db, warehouse);
    seam = store.seam();
    iceberg = Tiers.coldTable(store.catalog(), InteropStore.TABLE).icebergTable();
    iceberg.refresh();
    String w = sparkTimestamp(seam.watermark());
    String resolution = store.resolutionSetting("resolution_sql_spark");
    Map<String, String> sql = new LinkedHashMap<>();
    sql.put("schema", "iceberg-schema " + TABLE);
    sql.put("describe", "DESCRIBE TABLE EXTENDED " + TABLE);
    sql.put("properties", "SHOW TBLPROPERTIES " + TABLE);
    sql.put(
        "file_field_ids",
        "SELECT DISTINCT array_join(array_sort(map_keys(value_counts)), ',') AS ids FROM "
            + TABLE
            + ".files");
    sql.put(
        "snapshot",
        "SELECT snapshot_id, operation, summary['meterstore.watermark'] AS watermark FROM "
            + TABLE
            + ".snapshots WHERE snapshot_id = "
            + seam.snapshotId());
    sql.put(
        "cold_resolved",
        "SELECT COUNT(*) AS n, SUM(`value`) AS total FROM ("
            + resolution
            + ") c WHERE `from` < "
            + w);
    sql.put(
        "cold_naive",
        "SELECT COUNT(*) AS n, SUM(`value`) AS total FROM " + TABLE + " WHERE `from` < " + w);
    sql.put("seam_rows", seam.sparkSql());
    sql.put(
        "seam_totals",
        "SELECT COUNT(*) AS n, SUM(`value`) AS total FROM (" + seam.sparkSql() + ") f");
    sql.put(
        "seam_daily",
        "SELECT `balancing_day`, SUM(`value`) AS total FROM ("
            + seam.sparkSql()
            + ") f GROUP BY `balancing_day`");
    spark = SparkSql.run(store, SparkSql.workDir(SparkInteropIT.class), sql);
  }

  @AfterAll
  static void close() {
    if (store != null) {
      store.close();
    }
  }

  /** {@code TIMESTAMP '...Z'}: the literal form the published Spark SQL uses. */
  private static String sparkTimestamp(Instant instant) {
    return "TIMESTAMP '" + instant + "'";
  }

  @Test
  void sparkLoadsTheIcebergSchemaWithMeterStoresFieldIds() {
    List<String> expected = new ArrayList<>();
    for (Types.NestedField f : iceberg.schema().columns()) {
      expected.add(f.fieldId() + "|" + f.name() + "|" + f.type() + "|" + f.isRequired());
    }
    List<String> actual =
        spark.get("schema").rows().stream().map(r -> String.join("|", r)).toList();
    assertThat(actual).containsExactlyElementsOf(expected);
    // the data files' metrics are keyed by the same ids
    String ids =
        iceberg.schema().columns().stream()
            .map(f -> Integer.toString(f.fieldId()))
            .sorted((a, b) -> Integer.compare(Integer.parseInt(a), Integer.parseInt(b)))
            .collect(Collectors.joining(","));
    assertThat(spark.get("file_field_ids").column("ids")).containsExactly(ids);
  }

  @Test
  void sparkSeesTheColumnTypesWithDecimalPrecision() {
    Map<String, String> sparkTypes = describedColumns();
    Map<String, String> expected = new LinkedHashMap<>();
    for (Types.NestedField f : iceberg.schema().columns()) {
      expected.put(f.name(), sparkType(f.type()));
    }
    assertThat(sparkTypes).containsExactlyEntriesOf(expected);
    assertThat(sparkTypes).containsEntry("value", "decimal(18,6)");
    assertThat(sparkTypes).containsEntry("version", "decimal(20,0)");
    assertThat(sparkTypes).containsEntry("from", "timestamp");
  }

  @Test
  void sparkSeesMeterStoresPartitionSpecSortOrderAndFormatVersion() {
    List<String> expectedPartitioning = new ArrayList<>();
    Schema schema = iceberg.schema();
    for (PartitionField f : iceberg.spec().fields()) {
      expectedPartitioning.add(sparkTransform(f, schema));
    }
    assertThat(describedPartitioning()).containsExactlyElementsOf(expectedPartitioning);
    assertThat(expectedPartitioning).contains("months(from)");

    Map<String, String> props = properties();
    List<String> expectedOrder = new ArrayList<>();
    for (SortField f : iceberg.sortOrder().fields()) {
      assertThat(f.transform().isIdentity()).isTrue();
      expectedOrder.add(
          schema.findColumnName(f.sourceId())
              + " "
              + f.direction()
              + " "
              + f.nullOrder().toString().replace('_', ' '));
    }
    assertThat(props.get("sort-order")).isEqualTo(String.join(", ", expectedOrder));
    assertThat(props.get("sort-order")).isEqualTo("malo_id ASC NULLS FIRST, from ASC NULLS FIRST");

    int formatVersion = ((HasTableOperations) iceberg).operations().current().formatVersion();
    assertThat(formatVersion).isEqualTo(2);
    assertThat(props).containsEntry("format-version", "2");
    assertThat(props)
        .containsEntry(
            "current-snapshot-id", Long.toString(iceberg.currentSnapshot().snapshotId()));
    // every property MeterStore set on the table, as Spark shows it
    assertThat(props).containsAllEntriesOf(iceberg.properties());
    TableMetadata metadata = ((HasTableOperations) iceberg).operations().current();
    assertThat(metadata.specs()).hasSize(1);
    assertThat(metadata.sortOrders()).hasSize(1);
  }

  @Test
  void theSnapshotSummaryCarriesTheSeamsWatermark() {
    List<String> row = spark.get("snapshot").single();
    assertThat(row.get(0)).isEqualTo(Long.toString(seam.snapshotId()));
    assertThat(Instant.parse(row.get(2))).isEqualTo(seam.watermark());
  }

  @Test
  void publishedResolutionGivesMeterStoresColdTotalsAndANaiveSumOverstatesThem() throws Exception {
    String belowW = " WHERE " + InteropStore.fromBefore(seam.watermark());
    List<String> meterStore = store.totals("\"" + InteropStore.TABLE + "\"" + belowW);
    List<String> resolved = totals(spark.get("cold_resolved"));
    assertThat(resolved).isEqualTo(meterStore);
    assertThat(Long.parseLong(resolved.get(0))).isPositive();

    List<String> naive = totals(spark.get("cold_naive"));
    List<String> versions = store.totals("\"" + InteropStore.TABLE + "_versions\"" + belowW);
    assertThat(naive.get(0)).isEqualTo(versions.get(0));
    assertThat(new BigDecimal(naive.get(1))).isGreaterThan(new BigDecimal(resolved.get(1)));
  }

  @Test
  void publishedSeamSqlReturnsExactlyMeterStoresCurrentRows() throws Exception {
    SparkSql.Result r = spark.get("seam_rows");
    List<String> lines = new ArrayList<>();
    for (List<String> row : r.rows()) {
      lines.add(
          InteropStore.line(
              cell(r, row, "malo_id"),
              cell(r, row, "obis_code"),
              Instant.parse(cell(r, row, "from")),
              cell(r, row, "version_scope"),
              new BigDecimal(cell(r, row, "version")),
              new BigDecimal(cell(r, row, "value")),
              cell(r, row, "quality"),
              LocalDate.parse(cell(r, row, "balancing_day"))));
    }
    lines.sort(null);
    List<String> expected = store.currentRows();
    assertThat(expected).isNotEmpty();
    assertThat(lines).hasSameSizeAs(expected);
    assertThat(lines).containsExactlyElementsOf(expected);
    // both tiers contributed: readings below and from W on
    assertThat(r.column("from").stream().map(Instant::parse))
        .anyMatch(from -> from.isBefore(seam.watermark()))
        .anyMatch(from -> !from.isBefore(seam.watermark()));
  }

  @Test
  void publishedSeamSqlGivesMeterStoresTotalsAndDailyTotals() throws Exception {
    assertThat(totals(spark.get("seam_totals")))
        .isEqualTo(store.totals("\"" + InteropStore.TABLE + "\""));
    Map<LocalDate, String> daily = new TreeMap<>();
    for (List<String> row : spark.get("seam_daily").rows()) {
      daily.put(LocalDate.parse(row.get(0)), InteropStore.plain(new BigDecimal(row.get(1))));
    }
    Map<LocalDate, String> expected = store.dailyTotals("TRUE");
    assertThat(expected).isNotEmpty();
    assertThat(daily).containsExactlyEntriesOf(expected);
  }

  private static String cell(SparkSql.Result r, List<String> row, String column) {
    return row.get(r.columns().indexOf(column));
  }

  private static List<String> totals(SparkSql.Result r) {
    List<String> row = r.single();
    return List.of(row.get(0), InteropStore.plain(new BigDecimal(row.get(1))));
  }

  /** The column section of {@code DESCRIBE TABLE EXTENDED}: name to Spark type. */
  private static Map<String, String> describedColumns() {
    Map<String, String> out = new LinkedHashMap<>();
    for (List<String> row : spark.get("describe").rows()) {
      String name = row.get(0);
      if (name == null || name.isBlank() || name.startsWith("#")) {
        break;
      }
      out.put(name, row.get(1));
    }
    return out;
  }

  /** The {@code # Partitioning} section of {@code DESCRIBE TABLE EXTENDED}. */
  private static List<String> describedPartitioning() {
    List<String> out = new ArrayList<>();
    boolean inSection = false;
    for (List<String> row : spark.get("describe").rows()) {
      String name = row.get(0) == null ? "" : row.get(0).trim();
      if (name.equals("# Partitioning")) {
        inSection = true;
      } else if (inSection && name.startsWith("Part ")) {
        out.add(row.get(1));
      } else if (inSection) {
        break;
      }
    }
    return out;
  }

  private static Map<String, String> properties() {
    Map<String, String> out = new TreeMap<>();
    for (List<String> row : spark.get("properties").rows()) {
      out.put(row.get(0), row.get(1));
    }
    return out;
  }

  /** The Spark type name Iceberg's Spark runtime maps an Iceberg primitive type to. */
  private static String sparkType(Type type) {
    switch (type.typeId()) {
      case STRING:
        return "string";
      case DATE:
        return "date";
      case TIMESTAMP:
        return ((Types.TimestampType) type).shouldAdjustToUTC() ? "timestamp" : "timestamp_ntz";
      case DECIMAL:
        Types.DecimalType d = (Types.DecimalType) type;
        return "decimal(" + d.precision() + "," + d.scale() + ")";
      default:
        throw new IllegalStateException("MeterStore uses no column of type " + type);
    }
  }

  /** A partition field as Spark names its transform. */
  private static String sparkTransform(PartitionField f, Schema schema) {
    String source = schema.findColumnName(f.sourceId());
    String t = f.transform().toString();
    if (t.equals("identity")) {
      return source;
    }
    if (t.equals("year") || t.equals("month") || t.equals("day") || t.equals("hour")) {
      return t + "s(" + source + ")";
    }
    throw new IllegalStateException("MeterStore uses no partition transform " + t);
  }
}
