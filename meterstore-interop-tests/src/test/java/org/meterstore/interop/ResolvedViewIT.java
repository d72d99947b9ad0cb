package org.meterstore.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.catalog.ViewCatalog;
import org.apache.iceberg.view.View;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.Tiers;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.cold.view.ResolvedView;
import org.meterstore.cold.view.ViewState;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * The resolved view {@code lastgang_current} in the Iceberg catalog (issue #34 item 3), checked in
 * the default build without Spark or Trino: its Trino representation is run as an engine would, the
 * cold branch by DuckDB over the Parquet files of the view's snapshot and every hot branch by
 * PostgreSQL, and its answer equals MeterStore's to the last decimal — at the state archival left,
 * with the first partition above W left pending detach (hidden from the parent), and after the next
 * archival moved W. Reclamation keeps a partition an earlier version names for one reader grace
 * after the version that stopped naming it.
 */
@ExtendWith(PostgresExtension.class)
class ResolvedViewIT {
  private static final Pattern SNAPSHOT = Pattern.compile("FOR VERSION AS OF (\\d+)");

  @TempDir Path warehouse;

  @Test
  void theViewNamedInTheCatalogEqualsMeterStoresAnswerThroughDetachesAndArchival(TestDatabase db)
      throws Exception {
    try (InteropStore store = InteropStore.build(db, warehouse);
        Connection duck = DriverManager.getConnection("jdbc:duckdb:");
        Connection pg = db.connect()) {
      try (Statement s = duck.createStatement()) {
        s.execute("SET TimeZone = 'UTC'");
      }
      try (Statement s = pg.createStatement()) {
        s.execute("SET TimeZone = 'UTC'");
      }
      String table = "\"" + InteropStore.TABLE + "\"";
      ColdTable cold = Tiers.coldTable(store.catalog(), InteropStore.TABLE);
      ViewCatalog catalog = (ViewCatalog) Tiers.cold(store.catalog()).catalog();
      TableIdentifier id = TableIdentifier.of("meterstore", "lastgang_current");

      // the view is in the catalog, at the state the seam publishes, with both dialects
      View view = catalog.loadView(id);
      InteropStore.Seam seam = store.seam();
      assertThat(view.sqlFor("trino").dialect()).isEqualTo("trino");
      assertThat(view.sqlFor("spark").dialect()).isEqualTo("spark");
      ViewState current = last(cold.resolvedView().versions());
      assertThat(current.snapshotId()).hasValue(seam.snapshotId());
      assertThat(current.watermark()).isEqualTo(seam.watermark());
      assertThat(view.sqlFor("trino").sql()).contains("FOR VERSION AS OF " + seam.snapshotId());
      assertThat(answer(duck, pg, store, catalog.loadView(id))).isEqualTo(store.totals(table));

      // a partition above W pending detach, hidden from the parent: the seam flags it, the view
      // still reads it by name
      String hidden = store.leaveFirstPartitionAboveWPendingDetach();
      PartitionInfo above =
          Tiers.hot(store.catalog()).partitions().list(store.table()).stream()
              .filter(p -> p.name().equals(hidden))
              .findFirst()
              .orElseThrow();
      assertThat(store.seam().servable()).isFalse();
      assertThat(answer(duck, pg, store, catalog.loadView(id))).isEqualTo(store.totals(table));

      // the next cycle archives that window: the view moves to the new (S, W) at the commit
      Instant later = store.now().plus(Duration.ofDays(1));
      TableOutcome row =
          store.catalog().maintenance().runOnce(later).row(InteropStore.TABLE).orElseThrow();
      assertThat(row.status()).isEqualTo(TableOutcome.Status.ARCHIVED);
      ViewState moved = last(cold.resolvedView().versions());
      assertThat(moved.watermark()).isEqualTo(cold.watermark()).isAfter(current.watermark());
      assertThat(moved.snapshotId()).hasValue(cold.icebergTable().currentSnapshot().snapshotId());
      assertThat(moved.publishedAt()).isEqualTo(later);
      assertThat(answer(duck, pg, store, catalog.loadView(id))).isEqualTo(store.totals(table));

      // the archived partition: the previous version named it until `later`, so it stays one
      // reader grace (1 h) and is reclaimed after
      ResolvedView resolved = cold.resolvedView();
      Duration grace = store.table().policy().readerGrace();
      assertThat(resolved.releases(above.upperBound(), later.plusSeconds(60), grace)).isFalse();
      assertThat(resolved.releases(above.upperBound(), later.plus(grace), grace)).isTrue();
      assertThat(resolved.snapshotsInUse(later.plusSeconds(60), grace))
          .contains(current.snapshotId().getAsLong(), moved.snapshotId().getAsLong());
      assertThat(resolved.snapshotsInUse(later.plus(grace), grace))
          .containsExactly(moved.snapshotId().getAsLong());
      store.catalog().maintenance().runOnce(later.plus(grace).plusSeconds(1));
      assertThat(Tiers.hot(store.catalog()).partitions().list(store.table()))
          .extracting(PartitionInfo::name)
          .doesNotContain(above.name());
      assertThat(answer(duck, pg, store, catalog.loadView(id))).isEqualTo(store.totals(table));
    }
  }

  /**
   * The view's answer as an engine computes it: {@code COUNT(*)} and {@code SUM(value)} of its
   * Trino SQL, the cold branch (S's files below W) in DuckDB and the hot branches in PostgreSQL.
   * Resolving the two parts apart is exact: all versions of a reading share its {@code from}.
   */
  private static List<String> answer(Connection duck, Connection pg, InteropStore store, View view)
      throws Exception {
    String sql = view.sqlFor("trino").sql();
    Matcher m = SNAPSHOT.matcher(sql);
    assertThat(m.find()).isTrue();
    long snapshot = Long.parseLong(m.group(1));
    Instant w = Instant.parse(view.properties().get("meterstore.watermark"));
    // the cold branch alone: S's Parquet files, resolved, below W
    List<String> files =
        ColdFiles.of(Tiers.coldTable(store.catalog(), InteropStore.TABLE).icebergTable(), snapshot);
    String resolution = store.resolutionSetting("resolution_sql");
    List<String> cold =
        InteropStore.totals(
            duck,
            "SELECT COUNT(*), SUM(\"value\") FROM "
                + ColdFiles.resolvedOver(
                    resolution, InteropStore.TABLE, ColdFiles.readParquet(files))
                + " c WHERE \"from\" < TIMESTAMPTZ '"
                + w
                + "'");
    // the hot branches: the view's own SQL with its cold branch emptied, run by PostgreSQL
    String hotOnly =
        sql.replace(
                "\"meterstore\".\"meterstore\".\"lastgang\" FOR VERSION AS OF " + snapshot,
                "(SELECT * FROM \"meterstore\".\"lastgang\" WHERE false) AS \"cold\"")
            .replace("\"hot\".\"meterstore\".", "\"meterstore\".");
    List<String> hot =
        InteropStore.totals(pg, "SELECT COUNT(*), SUM(\"value\") FROM (" + hotOnly + ") v");
    return List.of(
        Long.toString(Long.parseLong(cold.get(0)) + Long.parseLong(hot.get(0))),
        InteropStore.plain(new BigDecimal(cold.get(1)).add(new BigDecimal(hot.get(1)))));
  }

  private static ViewState last(List<ViewState> states) {
    assertThat(states).isNotEmpty();
    return states.get(states.size() - 1);
  }
}
