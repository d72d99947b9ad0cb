package org.meterstore.cold.view;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * A table's resolved relation as an Iceberg view in the catalog, {@code
 * <namespace>.<table>_current} : one SQL representation per dialect (Spark, Trino), each the
 * federated, version-resolved query at one state (S, W), with the hot rows read from the partitions
 * from W up by name. Every version records its S, W and publishing instant in its summary ({@code
 * meterstore.snapshot-id}, {@code meterstore.watermark}, {@code meterstore.published-at}), so the
 * view's own history says which state each version read.
 *
 * <p>Written after every commit that lands (archival, import, correction, compaction, re-stamp),
 * and by maintenance before it reclaims: a partition an earlier version names is dropped only one
 * reader grace after the version that stopped naming it was published ({@link #releases}).
 */
public interface ResolvedView {
  /** Iceberg's dialect name for Spark's representation. */
  String SPARK = "spark";

  /** Iceberg's dialect name for Trino's representation. */
  String TRINO = "trino";

  /** The suffix of a view's name after its table's. */
  String SUFFIX = "_current";

  /** The view's name in the table's namespace. */
  String name();

  /**
   * Brings the view to the table's current state: creates it, or commits a new version when S or W
   * moved since the current one. Never throws: a failure is in the result, and the view keeps
   * reading its earlier state (which reclamation then keeps).
   *
   * @param now recorded as the version's publishing instant
   */
  PublishResult publish(Instant now);

  /** The versions the view's history keeps, oldest first, that MeterStore published. */
  List<ViewState> versions();

  /**
   * Whether hot rows below {@code upper} may be removed at {@code now}: no version of the view read
   * within the last {@code grace} names them, i.e. the first version whose W reached {@code upper}
   * was published at least {@code grace} ago. True when there is no view.
   */
  boolean releases(Instant upper, Instant now, Duration grace);

  /**
   * The snapshots the view's versions read that a reader may still be reading at {@code now}: the
   * current version's, and each earlier one's that was replaced less than {@code grace} ago.
   */
  Set<Long> snapshotsInUse(Instant now, Duration grace);

  /** Drops the view (a purged table leaves none behind); false when there was none. */
  boolean drop();

  /** A table without a view: nothing is published, nothing is held. */
  ResolvedView NONE =
      new ResolvedView() {
        @Override
        public String name() {
          return "";
        }

        @Override
        public PublishResult publish(Instant now) {
          return new PublishResult(PublishResult.Status.OFF, java.util.Optional.empty(), "");
        }

        @Override
        public List<ViewState> versions() {
          return List.of();
        }

        @Override
        public boolean releases(Instant upper, Instant now, Duration grace) {
          return true;
        }

        @Override
        public Set<Long> snapshotsInUse(Instant now, Duration grace) {
          return Set.of();
        }

        @Override
        public boolean drop() {
          return false;
        }
      };
}
