package org.meterstore.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.Tiers;
import org.meterstore.hot.pin.StatePin;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.maintenance.outcome.TableOutcome.Status;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * A job outside MeterStore that runs longer than {@code reader_grace} (issue #34 item 4, default
 * build): it reads the pinned snapshot S's Parquet files with DuckDB and the hot parent from W with
 * PostgreSQL, each resolved by the published {@code resolution_sql}, while days of maintenance
 * cycles run beside it. With a state pin its answer is MeterStore's at the pin, to the last
 * decimal; once the pin is gone, archival and reclamation run, and the same (S, W) query misses the
 * archived readings — which the seam's documented check (W moved) catches.
 */
@ExtendWith(PostgresExtension.class)
class PinnedJobIT {
  @TempDir Path warehouse;

  @Test
  void aPinnedJobLongerThanTheReaderGraceGetsMeterStoresAnswerAndAnUnpinnedOneWouldNot(
      TestDatabase db) throws Exception {
    try (InteropStore store = InteropStore.build(db, warehouse);
        Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        Connection pg = db.connect()) {
      try (Statement s = duck.createStatement()) {
        s.execute("SET TimeZone = 'UTC'");
      }
      String table = "\"" + InteropStore.TABLE + "\"";
      Instant now = store.now();
      List<String> atPin = store.totals(table);
      StatePin pin =
          store.catalog().table(InteropStore.TABLE).pins().pin(Duration.ofDays(3), "job", now);
      assertThat(pin.snapshotId()).isNotNull();
      String resolution = store.resolutionSetting("resolution_sql");

      // the job's first half, then two days of maintenance (settlement lag 2 d, grace 1 h)
      List<String> cold = cold(duck, store, pin, resolution);
      for (int day = 1; day <= 2; day++) {
        Instant cycle = now.plus(Duration.ofDays(day));
        TableOutcome row =
            store.catalog().maintenance().runOnce(cycle).row(InteropStore.TABLE).orElseThrow();
        assertThat(row.status()).as("cycle " + cycle).isEqualTo(Status.HELD);
      }
      List<String> hot = hot(pg, resolution, pin.watermark());
      assertThat(sum(cold, hot)).as("the pinned job's answer").isEqualTo(atPin);

      // the pin released, archival and reclamation run: the old (S, W) query now misses readings
      store.catalog().table(InteropStore.TABLE).pins().release(pin.id());
      Instant later = now.plus(Duration.ofDays(3));
      assertThat(store.catalog().maintenance().runOnce(later).row(InteropStore.TABLE).orElseThrow())
          .extracting(TableOutcome::status)
          .isEqualTo(Status.ARCHIVED);
      store.catalog().maintenance().runOnce(later.plus(Duration.ofHours(2)));
      List<String> unpinned =
          sum(cold(duck, store, pin, resolution), hot(pg, resolution, pin.watermark()));
      assertThat(Long.parseLong(unpinned.get(0)))
          .as("readings the unpinned (S, W) query still finds")
          .isLessThan(Long.parseLong(atPin.get(0)));
      assertThat(Tiers.coldTable(store.catalog(), InteropStore.TABLE).watermark())
          .as("the documented check: W moved past the job's W")
          .isAfter(pin.watermark());
    }
  }

  /** The cold part: S's files, resolved, below W. */
  private static List<String> cold(
      Connection duck, InteropStore store, StatePin pin, String resolution) throws Exception {
    List<String> files =
        ColdFiles.of(
            Tiers.coldTable(store.catalog(), InteropStore.TABLE).icebergTable(), pin.snapshotId());
    String resolved =
        ColdFiles.resolvedOver(resolution, InteropStore.TABLE, ColdFiles.readParquet(files));
    return InteropStore.totals(
        duck,
        "SELECT COUNT(*), SUM(\"value\") FROM "
            + resolved
            + " c WHERE \"from\" < TIMESTAMPTZ '"
            + pin.watermark()
            + "'");
  }

  /** The hot part: PostgreSQL's hot parent from W, resolved. */
  private static List<String> hot(Connection pg, String resolution, Instant w) throws SQLException {
    String hotFromW =
        "(SELECT * FROM \"meterstore\".\""
            + InteropStore.TABLE
            + "\" WHERE \"from\" >= TIMESTAMPTZ '"
            + w
            + "')";
    String resolved = ColdFiles.resolvedOver(resolution, InteropStore.TABLE, hotFromW);
    return InteropStore.totals(pg, "SELECT COUNT(*), SUM(\"value\") FROM " + resolved + " c");
  }

  private static List<String> sum(List<String> a, List<String> b) {
    return List.of(
        Long.toString(Long.parseLong(a.get(0)) + Long.parseLong(b.get(0))),
        InteropStore.plain(new BigDecimal(a.get(1)).add(new BigDecimal(b.get(1)))));
  }
}
