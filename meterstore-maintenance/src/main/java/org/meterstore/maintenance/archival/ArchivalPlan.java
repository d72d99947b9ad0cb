package org.meterstore.maintenance.archival;

import java.time.Instant;
import java.util.List;

/**
 * What one archival run must do, computed by {@link ArchivalPlanner} without side effects.
 *
 * @param watermark the watermark the plan starts from
 * @param windows windows to archive, in order; each starts where the previous ends
 * @param stranded detached partitions that hold rows above the watermark but are not the next
 *     window, or partitions that straddle the watermark: never archived past, never dropped; an
 *     operator must look (the run stops before them)
 * @param reclaimable detached, archived partitions past their reader grace and not pinned: safe to
 *     drop
 * @param awaitingGrace detached, archived partitions still inside the reader grace, pinned by a
 *     query, or whose archival time is unknown
 * @param attachedBelowWatermark attached partitions that reach below the watermark: any row in them
 *     is an invariant violation
 */
public record ArchivalPlan(
    Instant watermark,
    List<ArchivalWindow> windows,
    List<ObservedPartition> stranded,
    List<ObservedPartition> reclaimable,
    List<ObservedPartition> awaitingGrace,
    List<ObservedPartition> attachedBelowWatermark) {

  /** Copies the lists. */
  public ArchivalPlan {
    windows = List.copyOf(windows);
    stranded = List.copyOf(stranded);
    reclaimable = List.copyOf(reclaimable);
    awaitingGrace = List.copyOf(awaitingGrace);
    attachedBelowWatermark = List.copyOf(attachedBelowWatermark);
  }

  /** The watermark once every planned window is committed. */
  public Instant watermarkAfter() {
    return windows.isEmpty() ? watermark : windows.get(windows.size() - 1).to();
  }

  /** Whether no window is due. */
  public boolean nothingDue() {
    return windows.isEmpty();
  }

  /**
   * The attached partitions wholly below the watermark that a known archival commit covers: their
   * rows are in the cold tier too, because PostgreSQL lost the detach that came before that commit
   * (a failover to a standby that had not received it, with the catalog outside PostgreSQL) or
   * someone attached them again. Queries read no partition below W, so nothing is counted twice;
   * the run detaches them again, and reclamation drops them once their digest matches the commit.
   */
  public List<ObservedPartition> lostDetaches() {
    return attachedBelowWatermark.stream()
        .filter(p -> p.archivedAt() != null && !p.to().isAfter(watermark))
        .toList();
  }
}
