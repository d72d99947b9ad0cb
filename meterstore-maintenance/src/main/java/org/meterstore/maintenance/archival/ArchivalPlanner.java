package org.meterstore.maintenance.archival;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Plans one archival run (DESIGN § 6, steps 2, 4, 7 and 8) as a pure function of the watermark, the
 * observed partitions, the reader pins, the policy and the caller's {@code now}.
 *
 * <p>Rules, in the order they apply:
 *
 * <ul>
 *   <li>Partitions are visited by lower bound. A window is due when its partition's upper bound is
 *       at or before {@code now - settlementLag}; the first window not due ends the plan.
 *   <li>A detached partition above the watermark is archived again (resumed) only when it is the
 *       next window; any other is stranded, and the plan stops before it so the watermark never
 *       passes rows that live in neither tier.
 *   <li>A partition that straddles the watermark (its bounds are not on the watermark's grid, as
 *       after a change of archival step) is stranded likewise.
 *   <li>An empty gap below the next partition is jumped: the window starts at the watermark and
 *       ends at that partition's upper bound, so an idle table costs one commit, not one per day.
 *   <li>At most {@code maxWindows} windows.
 *   <li>A detached partition wholly below the watermark may be dropped once its archival commit is
 *       older than {@code readerGrace} and no query pins it; a partition the watermark does not
 *       cover is never in that list.
 *   <li>An attached partition wholly below the watermark whose archival commit is known lost its
 *       detach ({@link ArchivalPlan#lostDetaches()}); one without a known commit is only suspect.
 * </ul>
 */
public final class ArchivalPlanner {
  private ArchivalPlanner() {}

  /**
   * Plans a run.
   *
   * @param watermark the table's current watermark W
   * @param partitions every partition observed, attached or detached, in any order
   * @param pinned names of partitions a registered query still reads
   * @param settlementLag how long a window stays correctable after its end
   * @param readerGrace how long an archived partition is kept for queries planned before
   * @param maxWindows the most windows one run archives, at least 1
   * @param now the caller's clock reading
   */
  public static ArchivalPlan plan(
      Instant watermark,
      List<ObservedPartition> partitions,
      Set<String> pinned,
      Duration settlementLag,
      Duration readerGrace,
      int maxWindows,
      Instant now) {
    if (maxWindows < 1) {
      throw new IllegalArgumentException("Invalid maxWindows: " + maxWindows + " (at least 1)");
    }
    Walk walk = new Walk(watermark, now.minus(settlementLag), maxWindows);
    partitions.stream()
        .sorted(Comparator.comparing(ObservedPartition::from))
        .forEach(
            p -> {
              if (!p.to().isAfter(watermark)) {
                walk.below(p, reclaimable(p, pinned, readerGrace, now));
              } else {
                walk.above(p);
              }
            });
    return new ArchivalPlan(
        watermark,
        walk.windows,
        walk.stranded,
        walk.reclaimable,
        walk.awaiting,
        walk.attachedBelow);
  }

  /** The state of one pass over the partitions in order of their lower bound. */
  private static final class Walk {
    private final Instant watermark;
    private final Instant dueBefore;
    private final int maxWindows;
    private final List<ArchivalWindow> windows = new ArrayList<>();
    private final List<ObservedPartition> stranded = new ArrayList<>();
    private final List<ObservedPartition> reclaimable = new ArrayList<>();
    private final List<ObservedPartition> awaiting = new ArrayList<>();
    private final List<ObservedPartition> attachedBelow = new ArrayList<>();
    private Instant next;
    private boolean open = true;

    Walk(Instant watermark, Instant dueBefore, int maxWindows) {
      this.watermark = watermark;
      this.dueBefore = dueBefore;
      this.maxWindows = maxWindows;
      this.next = watermark;
    }

    /** A partition wholly below the watermark. */
    void below(ObservedPartition p, boolean graceOver) {
      if (p.attached()) {
        attachedBelow.add(p);
      } else {
        (graceOver ? reclaimable : awaiting).add(p);
      }
    }

    /** A partition that reaches above the watermark. */
    void above(ObservedPartition p) {
      boolean straddles = p.from().isBefore(watermark);
      boolean strayDetached = !p.attached() && !(open && windows.isEmpty());
      if (straddles || strayDetached) {
        stranded.add(p);
        if (straddles && p.attached()) {
          attachedBelow.add(p);
        }
        open = false;
        return;
      }
      boolean due = !p.attached() || !p.to().isAfter(dueBefore);
      if (!open || !due || windows.size() == maxWindows) {
        open = false;
        return;
      }
      windows.add(new ArchivalWindow(p.name(), next, p.to(), !p.attached()));
      next = p.to();
    }
  }

  private static boolean reclaimable(
      ObservedPartition p, Set<String> pinned, Duration readerGrace, Instant now) {
    boolean graceOver = p.archivedAt() != null && !p.archivedAt().plus(readerGrace).isAfter(now);
    return graceOver && !pinned.contains(p.name());
  }
}
