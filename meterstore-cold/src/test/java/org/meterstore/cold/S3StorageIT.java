package org.meterstore.cold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.cold.ColdFixtures.DAY1;
import static org.meterstore.cold.ColdFixtures.DAY2;
import static org.meterstore.cold.ColdFixtures.NOW;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.ArchiveRequest;
import org.meterstore.cold.commit.ArchiveResult;
import org.meterstore.cold.commit.ArchiveStatus;
import org.meterstore.cold.config.ColdConfig;
import org.meterstore.cold.config.S3Settings;
import org.meterstore.cold.orphan.OrphanReport;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.testing.ObjectStoreServer;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * S3-compatible storage through {@code S3FileIO}, path-style, against MinIO where a Docker engine
 * answers and an in-process s3proxy (127.0.0.1, in memory) where none does ({@link
 * ObjectStoreServer}).
 */
@ExtendWith(PostgresExtension.class)
class S3StorageIT {
  private static final String BUCKET = "meterstore-test";

  private ObjectStoreServer server;
  private ColdStore store;

  @BeforeEach
  void start(TestDatabase db) throws Exception {
    server = ObjectStoreServer.start("access", "secret-key");
    server.createBucket(BUCKET);
    S3Settings s3 =
        S3Settings.pathStyle(
            server.endpoint(), ObjectStoreServer.REGION, server.accessKey(), server.secretKey());
    store =
        ColdStore.open(
            ColdConfig.jdbc(db.jdbcUrl(), db.user(), db.password(), "s3://" + BUCKET + "/warehouse")
                .withS3(s3)
                .withCommitPolicy(ColdFixtures.FAST));
  }

  @AfterEach
  void stop() throws Exception {
    store.close();
    server.close();
  }

  @Test
  void archivesToS3AndReadsBackRowsAndWatermark() {
    TableDefinition def = TableDefinition.interval("s3_lastgang");
    ColdTable table = store.createTable(def);
    List<Object[]> rows = ColdFixtures.rows(def, 3, DAY1, DAY2, 30);

    ArchiveResult result = table.archive(new ArchiveRequest(DAY1, DAY2, NOW, 1), rows);

    assertThat(result.status()).isEqualTo(ArchiveStatus.COMMITTED);
    assertThat(table.watermark()).isEqualTo(DAY2);
    assertThat(ColdFixtures.canonical(table.read())).isEqualTo(ColdFixtures.canonical(rows));
    assertThat(table.icebergTable().location()).startsWith("s3://" + BUCKET + "/warehouse/");
  }

  @Test
  void listsTheBucketPrefixForOrphanRemoval() {
    TableDefinition def = TableDefinition.interval("s3_orphans");
    ColdTable table = store.createTable(def);
    table.archive(
        new ArchiveRequest(DAY1, DAY2, NOW, 1), ColdFixtures.rows(def, 1, DAY1, DAY2, 60));

    OrphanReport report = table.removeOrphanFiles(WatermarkIT.LATER, Duration.ZERO, true);

    assertThat(report.scannedFiles()).isPositive();
    assertThat(report.orphans()).isEmpty();
  }
}
