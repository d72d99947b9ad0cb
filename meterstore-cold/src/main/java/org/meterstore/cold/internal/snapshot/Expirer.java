package org.meterstore.cold.internal.snapshot;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.util.PropertyUtil;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TablePolicy;
import org.meterstore.cold.config.CommitPolicy;
import org.meterstore.cold.internal.catalog.ManifestWork;
import org.meterstore.cold.internal.catalog.TableAccess;
import org.meterstore.cold.internal.commit.CommitCounter;
import org.meterstore.cold.internal.watermark.WatermarkReader;
import org.meterstore.cold.snapshot.ExpiryResult;
import org.meterstore.cold.snapshot.SnapshotInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Expires snapshots by MeterStore's policy alone. It re-stamps W first, plans the ids itself, and
 * hands Iceberg exactly those ids with Iceberg's own age path neutralised ({@code expireOlderThan}
 * at the epoch selects nothing, {@code retainLast(1)}). Because ref-level settings and {@code
 * history.expire.*} table properties still reach Iceberg's planner, the operation is applied
 * (planned without committing) first, and any difference from MeterStore's plan, or a tag that
 * Iceberg would drop for its age, refuses the whole run before anything is removed.
 */
public final class Expirer {
  private static final Logger LOG = LoggerFactory.getLogger(Expirer.class);

  private Expirer() {}

  /** Runs expiry at {@code now} under {@code policy}, keeping the snapshots {@code retain} too. */
  public static ExpiryResult expire(
      TableAccess access,
      Instant now,
      TablePolicy policy,
      Set<Long> retain,
      CommitPolicy commitPolicy,
      CommitCounter counter) {
    boolean restamped = Restamper.reassert(access, now, commitPolicy, counter);
    Table table = access.load();
    Instant cutoff = ExpiryPlanner.cutoff(now, policy.snapshotRetention());
    List<SnapshotInfo> snapshots = SnapshotLister.list(table, access.tableName());
    Set<Long> protectedIds = new HashSet<>();
    table.refs().values().forEach(r -> protectedIds.add(r.snapshotId()));
    protectedIds.addAll(chainToWatermark(table, access.tableName()));
    protectedIds.addAll(chainsToWatermark(table, retain, access.tableName()));
    List<Long> plan =
        ExpiryPlanner.plan(snapshots, protectedIds, cutoff, policy.minSnapshotsToKeep());
    if (plan.isEmpty()) {
      return new ExpiryResult(cutoff, restamped, List.of(), snapshots.size());
    }
    requireTagsSurvive(table, now, access.tableName());
    execute(table, plan, access.tableName());
    LOG.info(
        "Cold table {}: expired {} snapshots before {}", access.tableName(), plan.size(), cutoff);
    return new ExpiryResult(cutoff, restamped, plan, snapshots.size() - plan.size());
  }

  /**
   * The current snapshot and every ancestor up to the nearest one carrying W: the walk that reads W
   * must never cross an expired snapshot, even if a foreign commit landed after the re-stamp.
   */
  private static Set<Long> chainToWatermark(Table table, String tableName) {
    return new HashSet<>(WatermarkReader.walk(table, table.currentSnapshot(), tableName).visited());
  }

  /**
   * The snapshots {@code retain} names and each one's ancestors up to the nearest carrying W: a
   * kept snapshot a foreign commit made (no W of its own) must keep its W readable.
   */
  private static Set<Long> chainsToWatermark(Table table, Set<Long> retain, String tableName) {
    Set<Long> kept = new HashSet<>(retain);
    for (long id : retain) {
      Snapshot s = table.snapshot(id);
      if (s != null) {
        kept.addAll(WatermarkReader.walk(table, s, tableName).visited());
      }
    }
    return kept;
  }

  /** Hands exactly {@code plan} to Iceberg, after checking Iceberg would remove nothing more. */
  private static void execute(Table table, List<Long> plan, String name) {
    try {
      ExpireSnapshots op =
          ManifestWork.expire(table.expireSnapshots().expireOlderThan(0L).retainLast(1), table);
      plan.forEach(op::expireSnapshotId);
      requireSamePlan(op.apply(), plan, name);
      op.commit();
    } catch (ValidationException e) {
      throw new MeterStoreException(
          ErrorKind.CONFIG,
          "Cannot expire snapshots of cold table " + name + ": " + e.getMessage(),
          e);
    } catch (CommitFailedException e) {
      throw new MeterStoreException(
          ErrorKind.STORAGE,
          "Cannot expire snapshots of cold table " + name + ": commit refused, retry",
          e);
    }
  }

  private static void requireSamePlan(List<Snapshot> wouldRemove, List<Long> plan, String name) {
    Set<Long> iceberg = new TreeSet<>();
    wouldRemove.forEach(s -> iceberg.add(s.snapshotId()));
    if (!iceberg.equals(new TreeSet<>(plan))) {
      Set<Long> extra = new TreeSet<>(iceberg);
      plan.forEach(extra::remove);
      throw new MeterStoreException(
          ErrorKind.INVARIANT_VIOLATED,
          "Cannot expire snapshots of cold table "
              + name
              + ": Iceberg would also remove "
              + extra
              + " (a ref's or the table's history.expire.* setting widens MeterStore's cutoff);"
              + " nothing was expired");
    }
  }

  private static void requireTagsSurvive(Table table, Instant now, String name) {
    long defaultMaxAge =
        PropertyUtil.propertyAsLong(
            table.properties(),
            TableProperties.MAX_REF_AGE_MS,
            TableProperties.MAX_REF_AGE_MS_DEFAULT);
    List<String> doomed = new ArrayList<>();
    for (Map.Entry<String, SnapshotRef> e : table.refs().entrySet()) {
      SnapshotRef ref = e.getValue();
      Snapshot s = table.snapshot(ref.snapshotId());
      if (ref.isBranch() || s == null) {
        continue;
      }
      long maxAge = ref.maxRefAgeMs() != null ? ref.maxRefAgeMs() : defaultMaxAge;
      if (now.toEpochMilli() - s.timestampMillis() > maxAge) {
        doomed.add(e.getKey());
      }
    }
    if (!doomed.isEmpty()) {
      throw new MeterStoreException(
          ErrorKind.INVARIANT_VIOLATED,
          "Cannot expire snapshots of cold table "
              + name
              + ": Iceberg would drop the tags "
              + doomed
              + " for their age (max-ref-age); nothing was expired");
    }
  }
}
