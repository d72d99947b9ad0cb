package org.meterstore;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.partition.DetachMode;
import org.meterstore.hot.partition.PartitionState;
import org.meterstore.hot.pin.ReaderPin;
import org.meterstore.maintenance.MaintenanceBuilder;
import org.meterstore.maintenance.MaintenanceOutcome;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.maintenance.outcome.TableOutcome.Status;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.ReferenceModel;
import org.meterstore.testing.workload.Workload;

/**
 * What archival refuses to do: pass a detached leftover that is not the next window (named, and
 * resumed once it is next), drop a partition whose rows no longer match the commit that covers it,
 * drop a partition a reader pin still needs, or archive a table whose archival step changed.
 */
@ExtendWith(PostgresExtension.class)
class RefusalsIT {
  private static final Duration LAG = Duration.ofDays(1);
  private static final Instant WRITTEN = Instant.parse("2026-03-20T00:00:00Z");
  private static final Instant NOW = Instant.parse("2026-03-06T06:00:00Z");

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
  void aDetachedLeftoverThatIsNotTheNextWindowIsNamedAndResumedOnlyOnceItIsNext() {
    TableDefinition table = table("uebrig", Duration.ZERO);
    d.hot.partitions().detach(table, "uebrig_2026_03_02_0000", DetachMode.PLAIN);
    MaintenanceBuilder loop = loop(table);

    TableOutcome refused = loop.runOnce(NOW).row("uebrig").orElseThrow();

    assertThat(refused.status()).isEqualTo(Status.FAILED);
    assertThat(refused.failure().orElseThrow().kind()).isEqualTo(ErrorKind.INVARIANT_VIOLATED);
    assertThat(refused.failure().orElseThrow().getMessage()).contains("uebrig_2026_03_02_0000");
    assertThat(refused.counts().windowsArchived()).isEqualTo(1);
    assertThat(d.cold.createTable(table).watermark())
        .isEqualTo(Instant.parse("2026-03-02T00:00:00Z"));

    TableOutcome resumed = loop.runOnce(NOW).row("uebrig").orElseThrow();
    assertThat(resumed.status()).isEqualTo(Status.ARCHIVED);
    assertThat(d.cold.createTable(table).watermark())
        .isEqualTo(Instant.parse("2026-03-05T00:00:00Z"));
  }

  @Test
  void aPartitionWhoseRowsNoLongerMatchItsCommitIsNeverDropped(TestDatabase db) throws Exception {
    TableDefinition table = table("pruefung", Duration.ZERO);
    MaintenanceBuilder loop = loop(table);
    assertThat(loop.runOnce(NOW).row("pruefung").orElseThrow().status()).isEqualTo(Status.ARCHIVED);
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute(
          "UPDATE meterstore.pruefung_2026_03_02_0000 SET value = value + 1"
              + " WHERE ctid = (SELECT min(ctid) FROM meterstore.pruefung_2026_03_02_0000)");
    }

    MaintenanceOutcome outcome = loop.runOnce(NOW.plus(Duration.ofHours(1)));

    TableOutcome row = outcome.row("pruefung").orElseThrow();
    assertThat(row.status()).isEqualTo(Status.FAILED);
    assertThat(row.failure().orElseThrow().kind()).isEqualTo(ErrorKind.INVARIANT_VIOLATED);
    assertThat(row.failure().orElseThrow().getMessage())
        .contains("pruefung_2026_03_02_0000", "never dropped");
    assertThat(outcome.healthy()).isFalse();
    assertThat(d.hot.partitions().list(table))
        .extracting(p -> p.name())
        .containsOnlyOnce("pruefung_2026_03_02_0000")
        .doesNotContain("pruefung_2026_03_01_0000", "pruefung_2026_03_03_0000");
  }

  @Test
  void aPartitionAPinnedReaderStillNeedsIsKeptUntilThePinIsReleased() {
    TableDefinition table = table("gepinnt", Duration.ZERO);
    MaintenanceBuilder loop = loop(table);
    loop.runOnce(NOW);
    ReaderPin pin =
        d.hot
            .pins()
            .pin(
                "gepinnt",
                Instant.parse("2026-03-02T12:00:00Z"),
                Instant.parse("2026-03-02T13:00:00Z"),
                NOW,
                Duration.ofHours(6));

    loop.runOnce(NOW.plus(Duration.ofMinutes(1)));
    assertThat(d.hot.partitions().list(table))
        .filteredOn(p -> !p.upperBound().isAfter(Instant.parse("2026-03-05T00:00:00Z")))
        .singleElement()
        .matches(p -> p.name().equals("gepinnt_2026_03_02_0000"))
        .matches(p -> p.state() == PartitionState.DETACHED);

    d.hot.pins().release(pin.id());
    loop.runOnce(NOW.plus(Duration.ofMinutes(2)));
    assertThat(d.hot.partitions().list(table))
        .noneMatch(p -> !p.upperBound().isAfter(Instant.parse("2026-03-05T00:00:00Z")));
  }

  @Test
  void aTableWhoseArchivalStepChangedIsAConfigFailureAndGetsNoPartitionsOnTheNewGrid() {
    table("schritt", Duration.ZERO);
    TableDefinition halfDays =
        CatalogFixture.table("schritt", LAG, Duration.ZERO)
            .withPolicy(
                CatalogFixture.table("schritt", LAG, Duration.ZERO)
                    .policy()
                    .withArchivalStep(Duration.ofHours(12)));
    int before = d.hot.partitions().list(halfDays).size();

    TableOutcome row = loop(halfDays).runOnce(NOW).row("schritt").orElseThrow();

    assertThat(row.status()).isEqualTo(Status.FAILED);
    assertThat(row.failure().orElseThrow().kind()).isEqualTo(ErrorKind.CONFIG);
    assertThat(row.failure().orElseThrow().getMessage())
        .contains("archival_step", "PT12H", "PT24H");
    assertThat(d.hot.partitions().list(halfDays)).hasSize(before);
  }

  private static MaintenanceBuilder loop(TableDefinition table) {
    return d.catalog(List.of(table), OpenTelemetry.noop()).maintenance();
  }

  /** Three Berlin days of three meters from 2 March 2026 (UTC partitions 1 to 4 March). */
  private static TableDefinition table(String name, Duration grace) {
    TableDefinition table = CatalogFixture.table(name, LAG, grace);
    d.create(List.of(table), WRITTEN);
    d.write(
        table,
        new Workload(3, LocalDate.of(2026, 3, 2), 3, 0, 0.0, 0.0, 9),
        new ReferenceModel(table),
        WRITTEN);
    return table;
  }
}
