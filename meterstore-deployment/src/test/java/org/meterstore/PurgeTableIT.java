package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.OpenTelemetry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.apache.iceberg.catalog.ViewCatalog;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;

/**
 * {@code purgeTable}: a wrong confirmation or an undeclared table touches nothing; the right one
 * removes the table from both tiers — parent, attached partitions, detached leftovers, bookkeeping
 * rows, the Iceberg catalog entry and every data file — and leaves the other table alone.
 */
@ExtendWith(PostgresExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PurgeTableIT {
  private static final Instant DAY1 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Instant NOW = Instant.parse("2026-01-04T06:00:00Z");
  private static final TableDefinition EINS =
      CatalogFixture.table("eins", Duration.ofDays(1), Duration.ofHours(1));
  private static final TableDefinition ZWEI =
      CatalogFixture.table("zwei", Duration.ofDays(1), Duration.ofHours(1));

  @TempDir static Path warehouse;
  private static CatalogFixture d;
  private static MeterCatalog catalog;

  @BeforeAll
  static void writeAndArchiveBothTables(TestDatabase db) {
    d = new CatalogFixture(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
    catalog = d.catalog(List.of(EINS, ZWEI), OpenTelemetry.noop());
    catalog.createTables(DAY1);
    for (TableDefinition t : List.of(EINS, ZWEI)) {
      catalog
          .table(t.name())
          .append(EmbeddedDefaultIT.readings(2, DAY1, DAY1.plus(Duration.ofDays(4))), DAY1);
    }
    // Two windows archived per table; their partitions stay detached for the reader grace.
    assertThat(catalog.archive(NOW, 8).healthy()).isTrue();
  }

  @AfterAll
  static void close() {
    catalog.close();
    d.close();
  }

  @Test
  @Order(1)
  void aWrongConfirmationOrAnUnknownTableTouchesNothing() throws Exception {
    long relations = relations("eins");
    long snapshot = d.cold.createTable(EINS).icebergTable().currentSnapshot().snapshotId();

    assertRefused(
        () -> catalog.table("eins").purge("zwei"), "purge confirmation", "nothing was purged");
    assertRefused(
        () -> catalog.table("eins").purge(null), "purge confirmation", "nothing was purged");
    assertRefused(
        () -> catalog.table("eins").purge("EINS"), "purge confirmation", "nothing was purged");
    assertRefused(() -> catalog.table("drei").purge("drei"), "table", "declared tables");

    assertThat(relations("eins")).isEqualTo(relations).isGreaterThan(2);
    assertThat(d.cold.catalog().tableExists(d.cold.identifier("eins"))).isTrue();
    assertThat(d.cold.createTable(EINS).icebergTable().currentSnapshot().snapshotId())
        .isEqualTo(snapshot);
    assertThat(dataFiles("eins")).isNotEmpty();
  }

  @Test
  @Order(2)
  void theRightConfirmationDestroysBothTiersOfThatTableOnly() throws Exception {
    long zweiHot = d.scalar("SELECT count(*) FROM meterstore.zwei");
    long zweiRelations = relations("zwei");
    Instant zweiWatermark = d.cold.createTable(ZWEI).watermark();
    List<String> detached = detachedPartitions("eins");
    assertThat(detached).contains("eins_2026_01_01_0000", "eins_2026_01_02_0000");
    ViewCatalog views = (ViewCatalog) d.cold.catalog();
    assertThat(views.viewExists(d.cold.identifier("eins_current"))).isTrue();
    assertThat(files("eins_current")).isNotEmpty();

    PurgeResult result = catalog.table("eins").purge("eins");

    assertThat(result.hotRelationsDropped()).startsWith("eins").containsAll(detached);
    assertThat(result.coldTableDropped()).isTrue();
    assertThat(relations("eins")).isZero();
    assertThat(d.scalar("SELECT count(*) FROM meterstore.tables WHERE name = 'eins'")).isZero();
    assertThat(
            d.scalar("SELECT count(*) FROM meterstore.archival_leases WHERE table_name = 'eins'"))
        .isZero();
    assertThat(d.cold.catalog().tableExists(d.cold.identifier("eins"))).isFalse();
    assertThat(dataFiles("eins")).isEmpty();
    // its resolved view and the view's metadata files go with it; the other table's view stays
    assertThat(views.viewExists(d.cold.identifier("eins_current"))).isFalse();
    assertThat(files("eins_current")).isEmpty();
    assertThat(views.viewExists(d.cold.identifier("zwei_current"))).isTrue();

    assertThat(d.scalar("SELECT count(*) FROM meterstore.zwei")).isEqualTo(zweiHot);
    assertThat(relations("zwei")).isEqualTo(zweiRelations);
    assertThat(d.cold.createTable(ZWEI).watermark()).isEqualTo(zweiWatermark);
    assertThat(dataFiles("zwei")).isNotEmpty();

    PurgeResult again = catalog.table("eins").purge("eins");
    assertThat(again.hotRelationsDropped()).isEmpty();
    assertThat(again.coldTableDropped()).isFalse();
  }

  @Test
  @Order(3)
  void aReaderHoldingTheTableOrARunningArchivalMakesThePurgeWaitAndChangeNothing()
      throws Exception {
    long relations = relations("zwei");
    try (java.sql.Connection reader = d.db.connect()) {
      reader.setAutoCommit(false);
      try (java.sql.Statement s = reader.createStatement()) {
        s.executeQuery("SELECT count(*) FROM meterstore.zwei").close();
      }
      assertThatThrownBy(() -> catalog.table("zwei").purge("zwei"))
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> {
                assertThat(e.kind()).isEqualTo(ErrorKind.LOCK_TIMEOUT);
                assertThat(e.isRetryable()).isTrue();
              })
          .hasMessageContaining("zwei");
      reader.rollback();
    }
    try (org.meterstore.hot.archive.ArchivalLease lease =
        d.hot.archival().tryLease(ZWEI, "test", NOW).orElseThrow()) {
      assertThatThrownBy(() -> catalog.table("zwei").purge("zwei"))
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.LOCK_TIMEOUT))
          .hasMessageContaining("archival lease");
      assertThat(lease.isHeld()).isTrue();
    }
    assertThat(relations("zwei")).isEqualTo(relations);
    assertThat(d.cold.catalog().tableExists(d.cold.identifier("zwei"))).isTrue();
  }

  private static void assertRefused(Runnable call, String... parts) {
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(
            MeterStoreException.class, e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
        .hasMessageContainingAll(parts);
  }

  private static long relations(String table) throws SQLException {
    return d.scalar(
        "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            + " WHERE n.nspname = 'meterstore' AND c.relkind IN ('r', 'p')"
            + " AND (c.relname = '"
            + table
            + "' OR c.relname LIKE '"
            + table
            + "\\_%')");
  }

  private static List<String> detachedPartitions(String table) throws SQLException {
    return d.hot.partitions().list(catalog.require(table)).stream()
        .filter(p -> p.state() == org.meterstore.hot.partition.PartitionState.DETACHED)
        .map(org.meterstore.hot.partition.PartitionInfo::name)
        .toList();
  }

  /** Every file under {@code name}'s directory in the warehouse namespace. */
  private static List<Path> files(String name) throws IOException {
    Path dir = warehouse.resolve("meterstore").resolve(name);
    if (!Files.exists(dir)) {
      return List.of();
    }
    try (Stream<Path> all = Files.walk(dir)) {
      return all.filter(Files::isRegularFile).toList();
    }
  }

  private static List<Path> dataFiles(String table) throws IOException {
    Path dir = warehouse.resolve("meterstore").resolve(table);
    if (!Files.exists(dir)) {
      return List.of();
    }
    try (Stream<Path> all = Files.walk(dir)) {
      return all.filter(p -> p.toString().endsWith(".parquet")).toList();
    }
  }
}
