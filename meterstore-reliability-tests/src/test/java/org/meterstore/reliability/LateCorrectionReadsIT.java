package org.meterstore.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.meterstore.reliability.OutageDeployment.reading;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.meterstore.AppendHooks;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.Tier;
import org.meterstore.api.reading.WriteOutcome;
import org.meterstore.api.reading.WriteResult;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.internal.write.AppendHook;
import org.meterstore.internal.write.AppendPoint;
import org.meterstore.maintenance.outcome.TableOutcome;
import org.meterstore.testing.PostgresExtension;
import org.meterstore.testing.TestDatabase;
import org.meterstore.testing.workload.Workload;

/**
 * A late correction — a reading below W, appended to the cold tier — reads the stored data files
 * that can hold its keys once per batch: the check before the hot write and the commit after it
 * share one classification as long as nothing was committed to the table in between (issue #36).
 * Counted at the object store: every data file read during one {@code append}. When another commit
 * lands between the check and the commit, the batch is classified again against it, and the
 * outcomes still agree with the reference model.
 */
@ExtendWith(PostgresExtension.class)
class LateCorrectionReadsIT {
  private static final Instant MAR1 = Instant.parse("2026-03-01T00:00:00Z");
  private static final Instant MAR2 = Instant.parse("2026-03-02T00:00:00Z");
  private static final Instant MAR4 = Instant.parse("2026-03-04T00:00:00Z");
  private static final Instant LOADED = Instant.parse("2026-03-06T00:00:00Z");
  private static final int METERS = 3;

  @TempDir Path warehouse;
  private OutageDeployment d;

  @AfterEach
  void close() {
    if (d != null) {
      d.power.up();
      d.close();
    }
  }

  /** Five days of three meters, the first two archived: W = Mar 3. */
  private TableDefinition deployment(TestDatabase db, String name) throws Exception {
    TableDefinition t = OutageDeployment.table(name);
    d =
        new OutageDeployment(
            db.jdbcUrl(),
            db.user(),
            db.password(),
            warehouse,
            List.of(t),
            ObjectStoreSwitch.named(name),
            MAR1);
    d.load(t, METERS, MAR1, 5, LOADED);
    TableOutcome archived =
        d.catalog.maintenance().maxWindowsPerCycle(8).runOnce(MAR4).row(name).orElseThrow();
    assertThat(archived.status()).isEqualTo(TableOutcome.Status.ARCHIVED);
    assertThat(d.watermark(t)).isEqualTo(Instant.parse("2026-03-03T00:00:00Z"));
    return t;
  }

  /** Data files opened for reading, by path, while {@code run} runs. */
  private Map<String, Integer> dataFileReads(Runnable run) {
    Map<String, Integer> reads = new ConcurrentHashMap<>();
    d.power.onEachOperation(
        (op, path) -> {
          if (op == ObjectStoreSwitch.Op.OPEN && path.endsWith(".parquet")) {
            reads.merge(path, 1, Integer::sum);
          }
        });
    try {
      run.run();
    } finally {
      d.power.up();
    }
    return reads;
  }

  @Test
  void aLateCorrectionReadsEachStoredFileOnce(TestDatabase db) throws Exception {
    TableDefinition t = deployment(db, "reads_once");
    // meter 1's first two quarter-hours of Mar 2, restated under a later version
    List<Reading> batch =
        List.of(reading(1, MAR2, "7.5", 2), reading(1, MAR2.plus(Duration.ofMinutes(15)), "8", 2));
    AtomicInteger appended = new AtomicInteger();
    Map<String, Integer> reads =
        dataFileReads(
            () -> {
              WriteResult r = d.append(t, batch, LOADED.plus(Duration.ofHours(1)));
              assertThat(r.tiers()).containsOnly(Tier.COLD);
              assertThat(r.outcomes()).containsOnly(WriteOutcome.SUPERSEDED);
              appended.set(r.outcomes().size());
            });
    assertThat(appended.get()).isEqualTo(2);
    assertThat(reads).as("data files opened for the batch").isNotEmpty();
    assertThat(reads.values()).as("opens per data file, by path: %s", reads).containsOnly(1);
    d.assertQueriesEqualModel(t);
    d.assertTieringHolds(t);
  }

  @Test
  void aCommitBetweenTheCheckAndTheAppendIsClassifiedAgain(TestDatabase db) throws Exception {
    TableDefinition t = deployment(db, "reads_again");
    Reading correction = reading(2, MAR2, "11", 2);
    // another writer lands the same correction after this append checked its batch and before it
    // commits: this one must then report it DUPLICATE, not append it a second time
    AtomicBoolean raced = new AtomicBoolean();
    AtomicReference<List<WriteOutcome>> other = new AtomicReference<>();
    AppendHooks.install(
        d.catalog,
        (point, table, w) -> {
          if (point == AppendPoint.AFTER_ROUTING && raced.compareAndSet(false, true)) {
            other.set(d.append(t, List.of(correction), LOADED).outcomes());
          }
        });
    WriteResult r;
    try {
      r = d.catalog.table(t.name()).append(List.of(correction), LOADED);
    } finally {
      AppendHooks.install(d.catalog, AppendHook.NONE);
    }
    assertThat(other.get()).containsExactly(WriteOutcome.SUPERSEDED);
    assertThat(r.outcomes()).containsExactly(WriteOutcome.DUPLICATE);
    assertThat(r.tiers()).containsExactly(Tier.COLD);
    assertThat(
            d.count(
                "SELECT count(*) FROM "
                    + t.name()
                    + "_versions WHERE malo_id = '"
                    + Workload.malo(2)
                    + "' AND \"from\" = TIMESTAMP '2026-03-02 00:00:00'"))
        .as("versions of the corrected quarter-hour")
        .isEqualTo(2);
    d.assertQueriesEqualModel(t);
  }
}
