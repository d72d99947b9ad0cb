package org.meterstore.cold.view;

import java.util.Optional;

/**
 * What publishing a resolved view did.
 *
 * @param status what happened
 * @param state the view's current state afterwards, when it has one
 * @param message why it failed or is unsupported; empty otherwise
 */
public record PublishResult(Status status, Optional<ViewState> state, String message) {
  /** What happened. */
  public enum Status {
    /** This store publishes no views (no renderer was given: a tier store used on its own). */
    OFF,
    /** The catalog keeps no views (not an Iceberg {@code ViewCatalog}, or it refused one). */
    UNSUPPORTED,
    /** The view already read the table's current state. */
    UNCHANGED,
    /** A new view version for the current state was committed. */
    PUBLISHED,
    /** The view could not be written; it still reads its earlier state. */
    FAILED
  }

  /** Whether the view (if any) now reads the table's current state, or there is none. */
  public boolean current() {
    return status != Status.FAILED;
  }
}
