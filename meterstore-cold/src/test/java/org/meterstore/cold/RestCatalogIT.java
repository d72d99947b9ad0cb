package org.meterstore.cold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.cold.ColdFixtures.DAY1;
import static org.meterstore.cold.ColdFixtures.DAY2;
import static org.meterstore.cold.ColdFixtures.DAY3;
import static org.meterstore.cold.ColdFixtures.NOW;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.commit.ArchiveResult;
import org.meterstore.cold.commit.ArchiveStatus;
import org.meterstore.cold.commit.SummaryKeys;
import org.meterstore.cold.config.ColdConfig;
import org.meterstore.cold.internal.catalog.CatalogFactory;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.testing.InProcessRestCatalog;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/** The REST catalog wiring, against an in-process REST server backed by a JDBC catalog. */
@ExtendWith(PostgresExtension.class)
class RestCatalogIT {
  @TempDir Path warehouse;
  private Catalog backend;
  private InProcessRestCatalog server;
  private ColdStore store;

  @BeforeEach
  void start(TestDatabase db) throws IOException {
    Map<String, String> props = CatalogFactory.properties(ColdFixtures.jdbc(db, warehouse));
    backend =
        CatalogUtil.buildIcebergCatalog(
            "backend", props, new org.apache.hadoop.conf.Configuration());
    server = new InProcessRestCatalog(backend);
    store = ColdStore.open(ColdConfig.rest(server.uri(), null).withCommitPolicy(ColdFixtures.FAST));
  }

  @AfterEach
  void stop() throws Exception {
    store.close();
    server.close();
    ((AutoCloseable) backend).close();
  }

  @Test
  void archivesThroughTheRestCatalogAndReadsBackRowsAndWatermark() {
    TableDefinition def = TableDefinition.interval("rest_lastgang");
    ColdTable table = store.createTable(def);
    assertThat(table.watermark()).isEqualTo(java.time.Instant.EPOCH);
    List<Object[]> day1 = ColdFixtures.rows(def, 2, DAY1, DAY2, 30);
    List<Object[]> day2 = ColdFixtures.rows(def, 2, DAY2, DAY3, 30);

    ArchiveResult first = table.archive(new ArchiveRequest(DAY1, DAY2, NOW, 1), day1);
    ArchiveResult second = table.archive(new ArchiveRequest(DAY2, DAY3, NOW, 1), day2);

    assertThat(first.status()).isEqualTo(ArchiveStatus.COMMITTED);
    assertThat(second.status()).isEqualTo(ArchiveStatus.COMMITTED);
    assertThat(table.watermark()).isEqualTo(DAY3);
    assertThat(ColdFixtures.count(table.read())).isEqualTo(day1.size() + day2.size());
    assertThat(ColdFixtures.canonical(table.readSnapshot(first.snapshotId())))
        .isEqualTo(ColdFixtures.canonical(day1));
    // The backing catalog sees the same table and W: the REST server committed it there.
    assertThat(backend.loadTable(store.identifier("rest_lastgang")).currentSnapshot().summary())
        .containsEntry(SummaryKeys.WATERMARK, DAY3.toString());
  }

  @Test
  void aSecondArchiverOfTheSameWindowLosesTheRaceThroughRest() {
    TableDefinition def = TableDefinition.interval("rest_race");
    ColdTable table = store.createTable(def);
    List<Object[]> rows = ColdFixtures.rows(def, 1, DAY1, DAY2, 60);
    table.archive(new ArchiveRequest(DAY1, DAY2, NOW, 1), rows);

    ArchiveResult again = table.archive(new ArchiveRequest(DAY1, DAY2, NOW, 2), rows);

    assertThat(again.status()).isEqualTo(ArchiveStatus.LOST_RACE);
    assertThat(ColdFixtures.count(table.read())).isEqualTo(rows.size());
  }
}
