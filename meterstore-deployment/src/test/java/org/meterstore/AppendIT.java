package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.OpenTelemetry;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.Tier;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.partition.DetachMode;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.partition.PartitionState;
import org.meterstore.hot.write.BelowFloorException;
import org.meterstore.internal.write.AppendHook;
import org.meterstore.internal.write.AppendPoint;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

/**
 * {@code append} routes by W through the façade only: a late correction for a day whose partition
 * was reclaimed, or is merely detached, lands in Iceberg and the query answers it; archival
 * committing a new W between routing and writing re-routes; {@code hotWriter} refuses below W; a
 * batch that breaks a rule in either tier writes nothing.
 */
@ExtendWith(PostgresExtension.class)
class AppendIT {
  private static final Duration LAG = Duration.ofDays(1);
  private static final Duration GRACE = Duration.ofHours(1);
  private static final Instant CREATED = Instant.parse("2026-03-01T00:00:00Z");
  private static final Instant MAR2 = Instant.parse("2026-03-02T00:00:00Z");
  private static final Instant MAR3 = Instant.parse("2026-03-03T00:00:00Z");
  private static final Instant MAR4 = Instant.parse("2026-03-04T00:00:00Z");
  private static final Instant MAR5 = Instant.parse("2026-03-05T00:00:00Z");

  @TempDir static Path warehouse;
  private static CatalogFixture d;

  @BeforeAll
  static void open(TestDatabase db) {
    d = new CatalogFixture(db, warehouse, Duration.ofSeconds(3), OpenTelemetry.noop());
  }

  @AfterAll
  static void close() {
    d.close();
  }

  @Test
  void aLateCorrectionAfterReclamationLandsInIcebergAndTheQueryAnswersIt() throws Exception {
    TableDefinition table = CatalogFixture.table("reclaimed", LAG, GRACE);
    try (MeterCatalog catalog = archivedTwoDays(table)) {
      catalog.archive(MAR4.plus(Duration.ofHours(2)), 8); // after the grace: reclaims
      assertThat(partitionsBelow(table, MAR3)).isEmpty();

      Instant at = MAR4.plus(Duration.ofHours(3));
      WriteResult r = catalog.table(table.name()).append(List.of(reading(1, MAR2, "3", 2)), at);

      assertThat(r.outcomes()).containsExactly(WriteOutcome.SUPERSEDED);
      assertThat(r.tiers()).containsExactly(Tier.COLD);
      assertThat(value(catalog, table, 1, MAR2)).isEqualByComparingTo("3");
      assertThat(partitionsBelow(table, MAR3)).isEmpty();
      assertThat(d.hot.partitions().countRowsBelow(table, MAR3)).isZero();
      assertThat(invariantViolations(catalog, table, at)).isZero();
    }
  }

  @Test
  void aLateCorrectionWhileThePartitionIsDetachedLandsInIcebergToo() throws Exception {
    TableDefinition table = CatalogFixture.table("detached", LAG, GRACE);
    try (MeterCatalog catalog = archivedTwoDays(table)) {
      assertThat(partitionsBelow(table, MAR3))
          .isNotEmpty()
          .allSatisfy(p -> assertThat(p.state()).isNotEqualTo(PartitionState.ATTACHED));

      Instant at = MAR4.plus(Duration.ofMinutes(10));
      WriteResult r = catalog.table(table.name()).append(List.of(reading(1, MAR2, "3", 2)), at);

      assertThat(r.tiers()).containsExactly(Tier.COLD);
      assertThat(r.outcomes()).containsExactly(WriteOutcome.SUPERSEDED);
      assertThat(value(catalog, table, 1, MAR2)).isEqualByComparingTo("3");
      assertThat(partitionsBelow(table, MAR3)).noneMatch(p -> p.state() == PartitionState.ATTACHED);
      assertThat(d.hot.partitions().countRowsBelow(table, MAR3)).isZero();
      assertThat(invariantViolations(catalog, table, at)).isZero();
    }
  }

  @Test
  void archivalCommittingBetweenRoutingAndWritingReRoutesTheReadings() throws Exception {
    TableDefinition table = CatalogFixture.table("race", LAG, GRACE);
    try (MeterCatalog catalog = archivedTwoDays(table)) {
      AtomicBoolean fired = new AtomicBoolean();
      catalog.appendHook(
          (point, name, w) -> {
            if (point == AppendPoint.AFTER_ROUTING && fired.compareAndSet(false, true)) {
              assertThat(w).isEqualTo(MAR3);
              // archival moves W to Mar 4 after the batch was routed by W = Mar 3
              assertThat(catalog.archive(MAR5, 8).healthy()).isTrue();
            }
          });
      Instant at = MAR5.plus(Duration.ofMinutes(5));
      List<Reading> batch = List.of(reading(1, MAR3, "5", 2), reading(2, MAR2, "7", 2));

      WriteResult r = catalog.table(table.name()).append(batch, at);

      assertThat(fired).isTrue();
      assertThat(catalog.table(table.name()).watermark()).isEqualTo(MAR4);
      assertThat(r.tiers()).containsExactly(Tier.COLD, Tier.COLD);
      assertThat(r.outcomes()).containsExactly(WriteOutcome.SUPERSEDED, WriteOutcome.SUPERSEDED);
      assertThat(value(catalog, table, 1, MAR3)).isEqualByComparingTo("5");
      assertThat(value(catalog, table, 2, MAR2)).isEqualByComparingTo("7");
      assertThat(d.hot.partitions().countRowsBelow(table, MAR4)).isZero();
      assertThat(partitionsBelow(table, MAR4)).noneMatch(p -> p.state() == PartitionState.ATTACHED);
      assertThat(invariantViolations(catalog, table, at)).isZero();

      // the same batch again: every reading is a redelivery in the cold tier
      WriteResult again = catalog.table(table.name()).append(batch, at);
      assertThat(again.outcomes()).containsOnly(WriteOutcome.DUPLICATE);
      assertThat(again.tiers()).containsOnly(Tier.COLD);
    }
  }

  @Test
  void archivalRecordsWAsTheHotFloorSoNoDirectHotWriteCanStrandARow() throws Exception {
    TableDefinition table = CatalogFixture.table("floored", LAG, GRACE);
    try (MeterCatalog catalog = archivedTwoDays(table)) {
      assertThat(d.hot.partitions().floor(table)).isEqualTo(MAR3);
      catalog.archive(MAR4.plus(Duration.ofHours(2)), 8); // reclaims the Mar 2 partition
      assertThat(partitionsBelow(table, MAR3)).isEmpty();

      // an application (or an old process) writing to the hot tier directly, past the façade
      Instant at = MAR4.plus(Duration.ofHours(3));
      assertThatThrownBy(() -> d.hot.write(table, List.of(reading(1, MAR2, "3", 2)), at))
          .isInstanceOfSatisfying(
              BelowFloorException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
          .hasMessageContaining("append");
      assertThat(partitionsBelow(table, MAR3)).isEmpty();
      assertThat(d.hot.partitions().countRowsBelow(table, MAR3)).isZero();
      assertThat(value(catalog, table, 1, MAR2)).isEqualByComparingTo("1");
    }
  }

  @Test
  void aBatchWhoseColdPartFailsAfterTheHotPartLandedNamesWhatLandedAndCompletesWhenRetried()
      throws Exception {
    TableDefinition table = CatalogFixture.table("retried", LAG, GRACE);
    try (MeterCatalog catalog = archivedTwoDays(table)) {
      Path moved = warehouse.resolveSibling(warehouse.getFileName() + "-away");
      AtomicBoolean fired = new AtomicBoolean();
      catalog.appendHook(
          (point, name, w) -> {
            if (point == AppendPoint.AFTER_ROUTING && fired.compareAndSet(false, true)) {
              move(warehouse, moved); // the object store goes away after routing
            }
          });
      Instant at = MAR4.plus(Duration.ofMinutes(20));
      List<Reading> batch = List.of(reading(1, MAR3, "6", 2), reading(2, MAR2, "6", 2));

      assertThatThrownBy(() -> catalog.table(table.name()).append(batch, at))
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> {
                assertThat(e.kind()).isEqualTo(ErrorKind.STORAGE);
                assertThat(e.isRetryable()).isTrue();
              })
          .hasMessageContaining("landed before the failure (batch position=tier): 0=HOT")
          .hasMessageContaining("retried, reports them DUPLICATE");

      move(moved, warehouse); // the object store is back
      catalog.appendHook(AppendHook.NONE);
      WriteResult r = catalog.table(table.name()).append(batch, at);
      assertThat(r.outcomes()).containsExactly(WriteOutcome.DUPLICATE, WriteOutcome.SUPERSEDED);
      assertThat(r.tiers()).containsExactly(Tier.HOT, Tier.COLD);
      assertThat(value(catalog, table, 1, MAR3)).isEqualByComparingTo("6");
      assertThat(value(catalog, table, 2, MAR2)).isEqualByComparingTo("6");
    }
  }

  @Test
  void aWindowBeingArchivedRefusesRetryablyWritingNothingAndTheRetryRoutesItCold()
      throws Exception {
    TableDefinition table = CatalogFixture.table("inflight", LAG, GRACE);
    try (MeterCatalog catalog = archivedTwoDays(table)) {
      String mar3 =
          d.hot.partitions().list(table).stream()
              .filter(p -> p.lowerBound().equals(MAR3))
              .findFirst()
              .orElseThrow()
              .name();
      AtomicBoolean fired = new AtomicBoolean();
      catalog.appendHook(
          (point, name, w) -> {
            if (point == AppendPoint.AFTER_ROUTING && fired.compareAndSet(false, true)) {
              // archival of Mar 3 has begun: detached, not committed, W still Mar 3
              d.hot.partitions().detach(table, mar3, DetachMode.PLAIN);
            }
          });
      Instant at = MAR5.plus(Duration.ofMinutes(1));
      List<Reading> batch = List.of(reading(1, MAR3, "8", 2));

      assertThatThrownBy(() -> catalog.table(table.name()).append(batch, at))
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> {
                assertThat(e.kind()).isEqualTo(ErrorKind.LOCK_TIMEOUT);
                assertThat(e.isRetryable()).isTrue();
              })
          .hasMessageContaining("being archived")
          .hasMessageContaining("(batch position=tier): none");
      assertThat(d.scalar("SELECT count(*) FROM meterstore.inflight WHERE version = 2")).isZero();

      assertThat(catalog.archive(MAR5, 8).healthy()).isTrue(); // the run resumes and commits W
      WriteResult r = catalog.table(table.name()).append(batch, at);
      assertThat(r.tiers()).containsExactly(Tier.COLD);
      assertThat(r.outcomes()).containsExactly(WriteOutcome.SUPERSEDED);
      assertThat(value(catalog, table, 1, MAR3)).isEqualByComparingTo("8");
    }
  }

  private static void move(Path from, Path to) {
    try {
      java.nio.file.Files.move(from, to);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  @Test
  void aHotWriterRefusesReadingsBelowWNamingAppend() throws Exception {
    TableDefinition table = CatalogFixture.table("writer", LAG, GRACE);
    try (MeterCatalog catalog = archivedTwoDays(table)) {
      HotWriter writer = catalog.table(table.name()).hotWriter();
      assertThat(writer.watermark()).isEqualTo(MAR3);
      Instant at = MAR4.plus(Duration.ofMinutes(10));

      assertThatThrownBy(
              () -> writer.write(List.of(reading(1, MAR3, "4", 2), reading(1, MAR2, "4", 2)), at))
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.INVALID_INPUT))
          .hasMessageContaining("append")
          .hasMessageContaining(MAR3.toString());
      assertThat(value(catalog, table, 1, MAR3)).isEqualByComparingTo("1");

      WriteResult r = writer.write(List.of(reading(1, MAR3, "4", 2)), at);
      assertThat(r.tiers()).containsExactly(Tier.HOT);
      assertThat(value(catalog, table, 1, MAR3)).isEqualByComparingTo("4");
    }
  }

  @Test
  void aBatchThatRestatesAColdValueWritesNeitherTier() throws Exception {
    TableDefinition table = CatalogFixture.table("refused", LAG, GRACE);
    try (MeterCatalog catalog = archivedTwoDays(table)) {
      Instant at = MAR4.plus(Duration.ofMinutes(10));
      // version 1 of meter 2 on Mar 2 is stored cold with value 1: restating it is a violation
      List<Reading> batch = List.of(reading(1, MAR3, "9", 2), reading(2, MAR2, "8", 1));

      assertThatThrownBy(() -> catalog.table(table.name()).append(batch, at))
          .isInstanceOfSatisfying(
              MeterStoreException.class,
              e -> assertThat(e.kind()).isEqualTo(ErrorKind.INTEGRITY_VIOLATION));

      assertThat(value(catalog, table, 1, MAR3)).isEqualByComparingTo("1");
      assertThat(value(catalog, table, 2, MAR2)).isEqualByComparingTo("1");
      assertThat(d.scalar("SELECT count(*) FROM meterstore.refused WHERE version = 2")).isZero();
    }
  }

  /**
   * A catalog over {@code table} with two meters' readings of Mar 2 and Mar 3 (value 1, version 1),
   * archived at Mar 4 00:00, so W = Mar 3 and the Mar 2 partition is detached (in its grace).
   */
  private static MeterCatalog archivedTwoDays(TableDefinition table) {
    MeterCatalog catalog = d.catalog(List.of(table), OpenTelemetry.noop());
    catalog.createTables(CREATED);
    List<Reading> batch = new ArrayList<>();
    for (Instant day : List.of(MAR2, MAR3)) {
      for (int meter = 1; meter <= 2; meter++) {
        batch.add(reading(meter, day, "1", 1));
      }
    }
    WriteResult r = catalog.table(table.name()).append(batch, CREATED);
    assertThat(r.tiers()).containsOnly(Tier.HOT);
    assertThat(catalog.archive(MAR4, 8).healthy()).isTrue();
    assertThat(catalog.table(table.name()).watermark()).isEqualTo(MAR3);
    return catalog;
  }

  private static Reading reading(int meter, Instant from, String value, int version) {
    return Reading.builder()
        .malo(Workload.malo(meter))
        .obis("1-0:1.8.0")
        .commodity(Commodity.STROM)
        .interval(from, from.plus(Duration.ofMinutes(15)))
        .value(value)
        .version("2026030" + version + "000000")
        .operator(Workload.OPERATOR)
        .build();
  }

  private static List<PartitionInfo> partitionsBelow(TableDefinition table, Instant w) {
    return d.hot.partitions().list(table).stream().filter(p -> p.lowerBound().isBefore(w)).toList();
  }

  /** The resolved value the SQL layer answers for one meter's quarter-hour at {@code from}. */
  private static BigDecimal value(
      MeterCatalog catalog, TableDefinition table, int meter, Instant from) throws SQLException {
    String sql =
        "SELECT \"value\" FROM \""
            + table.name()
            + "\" WHERE \"malo_id\" = ? AND \"from\" >= TIMESTAMP '"
            + literal(from)
            + "' AND \"from\" < TIMESTAMP '"
            + literal(from.plus(Duration.ofMinutes(15)))
            + "'";
    try (Connection c = catalog.connection();
        PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, Workload.malo(meter));
      try (ResultSet rs = s.executeQuery()) {
        assertThat(rs.next()).as("a row for meter %d at %s", meter, from).isTrue();
        BigDecimal v = rs.getBigDecimal(1);
        assertThat(rs.next()).as("one row for meter %d at %s", meter, from).isFalse();
        return v;
      }
    }
  }

  private static String literal(Instant instant) {
    return instant.toString().replace('T', ' ').replace("Z", "");
  }

  private static long invariantViolations(MeterCatalog catalog, TableDefinition table, Instant now)
      throws SQLException {
    catalog.refreshSystemTables(now);
    try (Connection c = catalog.connection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT \"invariant_violations\" FROM \"system\".\"tables\" WHERE \"table\" = ?")) {
      s.setString(1, table.name());
      try (ResultSet rs = s.executeQuery()) {
        assertThat(rs.next()).isTrue();
        return rs.getLong(1);
      }
    }
  }
}
