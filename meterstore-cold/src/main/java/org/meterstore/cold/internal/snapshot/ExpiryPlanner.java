package org.meterstore.cold.internal.snapshot;

import java.time.Instant;
import java.time.Period;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.meterstore.cold.snapshot.SnapshotInfo;
import org.meterstore.cold.snapshot.SnapshotOrder;

/**
 * Which snapshots expiry removes, as a pure function of the snapshots, the protected ids, {@code
 * now} and MeterStore's policy: those MeterStore stamped before the cutoff ({@link
 * SnapshotInfo#stampedAt}, on the same clock as {@code now}; Iceberg's wall-clock commit time is
 * never consulted), except the current snapshot, any snapshot a ref (tag or branch) points at, the
 * newest {@code minToKeep} by sequence number, and a snapshot with no stamp at all (a foreign
 * history older than MeterStore's first commit), whose age is unknown.
 */
public final class ExpiryPlanner {
  private ExpiryPlanner() {}

  /** {@code now} minus {@code retention}, computed on the UTC calendar. */
  public static Instant cutoff(Instant now, Period retention) {
    return now.atZone(ZoneOffset.UTC).minus(retention).toInstant();
  }

  /** The ids to expire, oldest first. */
  public static List<Long> plan(
      List<SnapshotInfo> snapshots, Set<Long> protectedIds, Instant cutoff, int minToKeep) {
    List<SnapshotInfo> ordered = SnapshotOrder.ordered(snapshots);
    Set<Long> newest = new HashSet<>();
    for (int i = Math.max(0, ordered.size() - minToKeep); i < ordered.size(); i++) {
      newest.add(ordered.get(i).snapshotId());
    }
    List<Long> expire = new ArrayList<>();
    for (SnapshotInfo s : ordered) {
      boolean old = s.stampedAt() != null && s.stampedAt().isBefore(cutoff);
      boolean kept =
          newest.contains(s.snapshotId())
              || protectedIds.contains(s.snapshotId())
              || !s.tags().isEmpty();
      if (old && !kept) {
        expire.add(s.snapshotId());
      }
    }
    return expire;
  }
}
