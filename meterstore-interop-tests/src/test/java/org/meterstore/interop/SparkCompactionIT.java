package org.meterstore.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.Tiers;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * Foreign maintenance: Spark compacts MeterStore's table with Iceberg's {@code rewrite_data_files}
 * procedure (a {@code replace} snapshot without {@code meterstore.watermark}); MeterStore's {@code
 * reassertWatermark} re-stamps W onto the new current snapshot. W does not move and every answer
 * MeterStore gives (current rows, totals, daily totals) stays what it was before the compaction.
 */
@ExtendWith(PostgresExtension.class)
class SparkCompactionIT {
  private static final String TABLE = "meterstore.meterstore." + InteropStore.TABLE;

  @TempDir static Path warehouse;

  private static InteropStore store;
  private static Table iceberg;
  private static InteropStore.Seam before;
  private static long filesBefore;
  private static List<String> rowsBefore;
  private static List<String> totalsBefore;
  private static List<String> coldTotalsBefore;
  private static Map<LocalDate, String> dailyBefore;
  private static Map<String, SparkSql.Result> spark;
  private static Snapshot replaced;
  private static boolean restamped;
  private static boolean restampedAgain;
  private static InteropStore.Seam after;

  @BeforeAll
  static void compact(TestDatabase db) throws Exception {
    store = InteropStore.buildUncompacted(db, warehouse);
    iceberg = Tiers.coldTable(store.catalog(), InteropStore.TABLE).icebergTable();
    iceberg.refresh();
    before = store.seam();
    filesBefore = dataFiles(iceberg);
    rowsBefore = store.currentRows();
    totalsBefore = store.totals(quoted());
    coldTotalsBefore = store.totals(quoted() + belowW(before.watermark()));
    dailyBefore = store.dailyTotals("TRUE");

    String w = "TIMESTAMP '" + before.watermark() + "'";
    Map<String, String> sql = new LinkedHashMap<>();
    sql.put("files_before", "SELECT COUNT(*) AS n FROM " + TABLE + ".files");
    // The table argument names the catalog too: Spark reads 'meterstore.lastgang' as table
    // lastgang of catalog meterstore (the namespace has the catalog's name) and finds none.
    sql.put(
        "rewrite",
        "CALL meterstore.system.rewrite_data_files(table => '"
            + TABLE
            + "', options => map('rewrite-all', 'true'))");
    sql.put("files_after", "SELECT COUNT(*) AS n FROM " + TABLE + ".files");
    sql.put(
        "main",
        "SELECT s.snapshot_id, s.parent_id, s.operation,"
            + " s.summary['meterstore.watermark'] AS watermark FROM "
            + TABLE
            + ".snapshots s JOIN "
            + TABLE
            + ".refs r ON r.snapshot_id = s.snapshot_id WHERE r.name = 'main'");
    sql.put(
        "cold_after",
        "SELECT COUNT(*) AS n, SUM(`value`) AS total FROM ("
            + store.resolutionSetting("resolution_sql_spark")
            + ") c WHERE `from` < "
            + w);
    spark = SparkSql.run(store, SparkSql.workDir(SparkCompactionIT.class), sql);

    iceberg.refresh();
    replaced = iceberg.currentSnapshot();
    restamped = store.catalog().table(InteropStore.TABLE).reassertWatermark(store.now());
    restampedAgain = store.catalog().table(InteropStore.TABLE).reassertWatermark(store.now());
    iceberg.refresh();
    after = store.seam();
  }

  @AfterAll
  static void close() {
    if (store != null) {
      store.close();
    }
  }

  private static String quoted() {
    return "\"" + InteropStore.TABLE + "\"";
  }

  private static String belowW(Instant w) {
    return " WHERE " + InteropStore.fromBefore(w);
  }

  private static long dataFiles(Table table) throws Exception {
    long n = 0;
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask ignored : tasks) {
        n++;
      }
    }
    return n;
  }

  @Test
  void sparkRewritesEveryDataFileIntoFewerInAReplaceSnapshot() throws Exception {
    long sparkBefore = Long.parseLong(spark.get("files_before").single().get(0));
    long sparkAfter = Long.parseLong(spark.get("files_after").single().get(0));
    assertThat(sparkBefore).isEqualTo(filesBefore);
    assertThat(sparkAfter).isPositive().isLessThan(sparkBefore);

    SparkSql.Result rewrite = spark.get("rewrite");
    List<String> result = rewrite.single();
    assertThat(result.get(rewrite.columns().indexOf("rewritten_data_files_count")))
        .isEqualTo(Long.toString(sparkBefore));
    assertThat(result.get(rewrite.columns().indexOf("added_data_files_count")))
        .isEqualTo(Long.toString(sparkAfter));
    assertThat(result.get(rewrite.columns().indexOf("failed_data_files_count"))).isEqualTo("0");

    List<String> main = spark.get("main").single();
    assertThat(main.get(0)).isEqualTo(Long.toString(replaced.snapshotId()));
    assertThat(main.get(1)).isEqualTo(Long.toString(before.snapshotId()));
    assertThat(main.get(2)).isEqualTo(DataOperations.REPLACE);
    assertThat(main.get(3)).as("a foreign commit carries no W").isNull();
    assertThat(replaced.operation()).isEqualTo(DataOperations.REPLACE);
    assertThat(dataFiles(iceberg)).isEqualTo(sparkAfter);
  }

  @Test
  void sparksResolutionOverItsCompactedFilesGivesTheSameColdTotals() {
    List<String> row = spark.get("cold_after").single();
    assertThat(List.of(row.get(0), InteropStore.plain(new BigDecimal(row.get(1)))))
        .isEqualTo(coldTotalsBefore);
  }

  @Test
  void reassertWatermarkRestampsTheUnchangedWOntoTheNewCurrentSnapshot() {
    assertThat(restamped).isTrue();
    assertThat(restampedAgain).as("the current snapshot carries W now").isFalse();
    Snapshot current = iceberg.currentSnapshot();
    assertThat(current.parentId()).isEqualTo(replaced.snapshotId());
    assertThat(current.summary())
        .containsEntry("meterstore.watermark", before.watermark().toString());
    assertThat(after.watermark()).isEqualTo(before.watermark());
    assertThat(after.snapshotId()).isEqualTo(current.snapshotId());
  }

  @Test
  void meterStoresAnswersAreUnchanged() throws Exception {
    assertThat(rowsBefore).isNotEmpty();
    assertThat(store.currentRows()).containsExactlyElementsOf(rowsBefore);
    assertThat(store.totals(quoted())).isEqualTo(totalsBefore);
    assertThat(store.totals(quoted() + belowW(after.watermark()))).isEqualTo(coldTotalsBefore);
    assertThat(store.dailyTotals("TRUE")).containsExactlyEntriesOf(dailyBefore);
  }
}
