package org.meterstore.cold.internal.commit;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.commit.SummaryKeys;
import org.meterstore.cold.config.CommitPolicy;
import org.meterstore.cold.internal.catalog.TableAccess;
import org.meterstore.cold.internal.drift.SchemaDrift;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every MeterStore commit does before and between attempts: make sure Iceberg will not retry
 * on its own, check schema drift, find a commit by its id after an unknown outcome, and pause with
 * jitter before the next attempt.
 */
public final class CommitSupport {
  private static final Logger LOG = LoggerFactory.getLogger(CommitSupport.class);

  private CommitSupport() {}

  /**
   * The table with {@code commit.retry.num-retries=0}, setting it first when an operator changed
   * it: Iceberg's own retry would re-apply a MeterStore commit to a newer base with a stale W.
   */
  public static Table withoutLibraryRetry(TableAccess access, Table table) {
    if ("0".equals(table.properties().get(TableProperties.COMMIT_NUM_RETRIES))) {
      return table;
    }
    LOG.info(
        "Setting {}=0 on cold table {} (MeterStore retries its own commits)",
        TableProperties.COMMIT_NUM_RETRIES,
        access.tableName());
    table.updateProperties().set(TableProperties.COMMIT_NUM_RETRIES, "0").commit();
    return access.load();
  }

  /**
   * {@code table} whose catalog commits are refused ({@link CommitFailedException}, so the attempt
   * counts as refused and its files are deleted) unless the table's current snapshot is still
   * {@code planned} at the swap. Iceberg's {@code SnapshotProducer} refreshes its base in {@code
   * apply()}, so without this an update whose summary was derived from {@code planned} (its W) is
   * silently re-applied onto any commit that landed since the caller loaded the table; turning off
   * Iceberg's retry only covers commits that land between {@code apply()} and the swap.
   */
  public static Table refusingIfMoved(Table table, long planned) {
    if (!(table instanceof HasTableOperations h)) {
      return table;
    }
    return new BaseTable(
        new InterceptingTableOperations(
            h.operations(),
            (base, next, commit) -> {
              Snapshot current = base.currentSnapshot();
              if (current == null || current.snapshotId() != planned) {
                throw new CommitFailedException(
                    "the table moved past the planned snapshot %s (now %s)",
                    planned, current == null ? null : current.snapshotId());
              }
              commit.run();
            }),
        table.name());
  }

  /** Throws {@code QUARANTINED} when {@code table}'s schema drifted from {@code definition}. */
  public static void requireNoDrift(TableDefinition definition, Table table) {
    SchemaDrift.compare(definition.name(), definition.columns(), table.schema())
        .requireCompatible();
  }

  /**
   * The snapshot among the current snapshot's ancestors whose summary carries {@code commitId}, or
   * null. The walk stops at a missing parent.
   */
  public static Snapshot findLanded(Table table, String commitId) {
    Snapshot s = table.currentSnapshot();
    while (s != null) {
      if (commitId.equals(s.summary().get(SummaryKeys.COMMIT_ID))) {
        return s;
      }
      s = s.parentId() == null ? null : table.snapshot(s.parentId());
    }
    return null;
  }

  /**
   * Sleeps before attempt {@code nextAttempt} (2 or more): uniformly between {@code minBackoff ×
   * 2^(nextAttempt-2)} (capped at the maximum) and {@code maxBackoff}.
   */
  public static void pause(CommitPolicy policy, int nextAttempt, String tableName) {
    long max = policy.maxBackoff().toMillis();
    long min = Math.min(max, policy.minBackoff().toMillis() << Math.min(20, nextAttempt - 2));
    long millis = min >= max ? max : ThreadLocalRandom.current().nextLong(min, max + 1);
    try {
      Thread.sleep(Duration.ofMillis(millis).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new MeterStoreException(
          ErrorKind.STORAGE, "Cannot commit to cold table " + tableName + ": interrupted", e);
    }
  }
}
