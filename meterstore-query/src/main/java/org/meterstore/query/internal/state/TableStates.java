package org.meterstore.query.internal.state;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.snapshot.SnapshotSelector;
import org.meterstore.cold.snapshot.SnapshotView;
import org.meterstore.cold.table.ColdTable;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.partition.PartitionState;
import org.meterstore.hot.pin.ReaderPin;
import org.meterstore.hot.pin.ReaderView;
import org.meterstore.query.internal.predicate.FromRange;
import org.meterstore.query.mode.ReadMode;

/**
 * Resolves a {@link TableState}: cold first (snapshot, then W from that snapshot), hot second in
 * one round trip (the committed watermark, the partitions enumerated after W was read, so an
 * archival run in between leaves its partition detached but present, and the pin over the window
 * the first scan reads above W). In the current modes an unreachable cold tier is recorded rather
 * than thrown: a query whose {@code from} range lies in the hot tier still runs, every other one
 * fails when it is routed.
 */
final class TableStates {
  /** The widest window a pin records: PostgreSQL's timestamps hold no {@link Instant#MIN}/MAX. */
  private static final FromRange PINNABLE =
      new FromRange(Instant.parse("0001-01-01T00:00:00Z"), Instant.parse("9999-12-31T00:00:00Z"));

  private TableStates() {}

  /**
   * The state of {@code def} in {@code mode}; when {@code pin}, the hot partitions {@code range}
   * reads above W are pinned in the same round trip that lists them.
   */
  static TableState resolve(
      CatalogRuntime rt, TableDefinition def, ReadMode mode, boolean pin, FromRange range) {
    Instant proved = null;
    for (int attempt = 1; ; attempt++) {
      try {
        return attempt(rt, def, mode, pin, range, proved);
      } catch (Raced raced) {
        if (attempt == MAX_ATTEMPTS) {
          throw raced.violation;
        }
        proved = raced.committed;
      }
    }
  }

  /** Attempts at reading a state while archival commits faster than the reads line up. */
  private static final int MAX_ATTEMPTS = 5;

  /**
   * The committed watermark read after the snapshot lies above the snapshot's W. Archival records
   * the committed W after each commit, so an archival commit between the two reads looks exactly
   * like a rollback. Read again, the snapshot now comes after that committed W was read: a W still
   * below it is a rollback (then {@link #attempt} throws the violation itself).
   */
  private static final class Raced extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final transient Instant committed;
    final MeterStoreException violation;

    Raced(Instant committed, MeterStoreException violation) {
      super(null, null, false, false);
      this.committed = committed;
      this.violation = violation;
    }
  }

  /**
   * One reading of the state; {@code proved} is a committed watermark read before this attempt's
   * snapshot (null on the first): a snapshot below it was rolled back.
   */
  private static TableState attempt(
      CatalogRuntime rt,
      TableDefinition def,
      ReadMode mode,
      boolean pin,
      FromRange range,
      Instant proved) {
    boolean readsCold = mode.kind() != ReadMode.Kind.OPERATIONAL;
    boolean readsHot = !mode.kind().coldOnly();
    if (readsCold && readsHot && readsCurrentSnapshot(mode)) {
      Optional<CatalogPointers.Known> known = rt.pointers().known(rt, def);
      if (known.isPresent()) {
        TableState state = oneTrip(rt, def, mode, pin, range, proved, known.get());
        if (state != null) {
          rt.metrics().stateRead(def.name(), "one_trip");
          return state;
        }
      }
    }
    if (readsCold) {
      rt.metrics().stateRead(def.name(), "catalog_first");
    }
    Cold cold = readsCold ? cold(rt, def, mode, readsHot) : Cold.NONE;
    boolean checked = cold.snapshot() != null && readsCurrentSnapshot(mode);
    if (checked && proved != null) {
      cold.snapshot().watermarkNotBelow(proved);
    }
    if (!readsHot) {
      return new TableState(
          def, mode, true, false, cold.snapshot(), Instant.MAX, cold.failure(), List.of(), null);
    }
    // the boundary is known before the listing unless W is unreadable (then the listing proves it)
    boolean boundaryKnown = !readsCold || cold.watermark() != null;
    Instant known = readsCold ? cold.watermark() : Instant.MIN;
    FromRange window = pin && boundaryKnown ? pinWindow(range, known) : null;
    ReaderView view = view(rt, def, window);
    try {
      if (checked) {
        try {
          cold.snapshot().watermarkNotBelow(view.committedWatermark());
        } catch (MeterStoreException e) {
          if (e.kind() == ErrorKind.INVARIANT_VIOLATED) {
            throw new Raced(view.committedWatermark(), e);
          }
          throw e;
        }
      }
      List<PartitionInfo> all = view.partitions();
      List<PartitionInfo> partitions;
      Instant boundary = Instant.MIN;
      if (!readsCold) {
        // operational: what PostgreSQL holds attached; a detached partition is archival's
        partitions = all.stream().filter(p -> p.state() != PartitionState.DETACHED).toList();
      } else if (boundaryKnown) {
        boundary = known;
        Instant w = known;
        partitions = all.stream().filter(p -> p.upperBound().isAfter(w)).toList();
      } else {
        // W unreadable: the lowest attached partition's lower bound A is a proved boundary.
        // Archival detaches a window's partition before committing it, window by window in order,
        // so W <= A and everything from A up is attached and in no cold file. The hot floor is no
        // substitute: it may lag W, with the rows between already dropped or corrected in the lake.
        partitions = all.stream().filter(p -> p.state() != PartitionState.DETACHED).toList();
        boundary = partitions.isEmpty() ? Instant.MAX : partitions.get(0).lowerBound();
      }
      ReaderPin taken = view.pin();
      if (pin && !boundaryKnown) {
        taken = pin(rt, def, partitions, boundary);
      }
      return new TableState(
          def, mode, readsCold, true, cold.snapshot(), boundary, cold.failure(), partitions, taken);
    } catch (RuntimeException e) {
      release(rt, view.pin());
      throw e;
    }
  }

  /**
   * {@link #attempt} in one round trip, for a table whose JDBC catalog lives in the hot tier's
   * database: the catalog's pointer is read with the committed watermark, before the listing, and
   * the pin over the window above the W last read is taken with them. The snapshot is the one at
   * that pointer: the metadata file is read again only when the pointer moved (a commit since the
   * last execution), and the catalog is not asked. A W that moved up leaves the pin wider than
   * needed; one that moved down (a rollback) is pinned again. Null when the pointer or the metadata
   * cannot be read this way: the caller then reads the state as before, nothing held.
   */
  private static TableState oneTrip(
      CatalogRuntime rt,
      TableDefinition def,
      ReadMode mode,
      boolean pin,
      FromRange range,
      Instant proved,
      CatalogPointers.Known known) {
    ColdTable table = rt.coldTable(def);
    SnapshotView last;
    try {
      last = table.viewAt(known.pointer());
    } catch (MeterStoreException e) {
      return null;
    }
    FromRange guessed = pin ? pinWindow(range, last.watermark()) : null;
    Instant now = rt.clock().instant();
    ReaderView view =
        guessed == null
            ? rt.hot().pins().view(def, null, null, now, rt.pinTtl(), known.entry())
            : rt.hot()
                .pins()
                .view(def, guessed.lower(), guessed.upper(), now, rt.pinTtl(), known.entry());
    ReaderPin taken = view.pin();
    try {
      String pointer = view.catalogPointer();
      if (pointer == null) {
        rt.pointers().drop(def);
        release(rt, taken);
        return null;
      }
      SnapshotView snapshot;
      try {
        snapshot = pointer.equals(known.pointer()) ? last : table.viewAt(pointer);
      } catch (MeterStoreException e) {
        release(rt, taken);
        return null;
      }
      rt.pointers().read(def, known.entry(), pointer);
      if (proved != null) {
        snapshot.watermarkNotBelow(proved);
      }
      try {
        snapshot.watermarkNotBelow(view.committedWatermark());
      } catch (MeterStoreException e) {
        if (e.kind() == ErrorKind.INVARIANT_VIOLATED) {
          throw new Raced(view.committedWatermark(), e);
        }
        throw e;
      }
      Instant w = snapshot.watermark();
      List<PartitionInfo> partitions =
          view.partitions().stream().filter(p -> p.upperBound().isAfter(w)).toList();
      FromRange needed = pin ? pinWindow(range, w) : null;
      if (needed != null && (taken == null || taken.from().isAfter(needed.lower()))) {
        ReaderPin wider =
            rt.hot()
                .pins()
                .pin(def.name(), needed.lower(), needed.upper(), rt.clock().instant(), rt.pinTtl());
        release(rt, taken);
        taken = wider;
      }
      return new TableState(def, mode, true, true, snapshot, w, null, partitions, taken);
    } catch (RuntimeException e) {
      release(rt, taken);
      throw e;
    }
  }

  /** The window of {@code range} at or above {@code boundary} that a pin records; null if empty. */
  private static FromRange pinWindow(FromRange range, Instant boundary) {
    FromRange above = range.intersect(new FromRange(boundary, Instant.MAX)).intersect(PINNABLE);
    return above.isEmpty() ? null : above;
  }

  private static ReaderView view(CatalogRuntime rt, TableDefinition def, FromRange window) {
    Instant now = rt.clock().instant();
    return window == null
        ? rt.hot().pins().view(def, null, null, now, rt.pinTtl())
        : rt.hot().pins().view(def, window.lower(), window.upper(), now, rt.pinTtl());
  }

  /** Releases {@code pin} (when not null), as far as the database answers. */
  static void release(CatalogRuntime rt, ReaderPin pin) {
    if (pin == null) {
      return;
    }
    try {
      rt.hot().pins().release(pin.id());
    } catch (RuntimeException e) {
      // the pin expires on its own
    }
  }

  /** The cold side of a state: the pinned snapshot with its W, or why it could not be read. */
  private record Cold(SnapshotView snapshot, MeterStoreException failure) {
    static final Cold NONE = new Cold(null, null);

    Instant watermark() {
      return snapshot == null ? null : snapshot.watermark();
    }
  }

  /**
   * Pins the snapshot the mode reads, with its W, through the cold tier. A retryable failure is
   * recorded when the mode also reads the hot tier (the query may not need the cold one); otherwise
   * it is thrown.
   */
  private static Cold cold(CatalogRuntime rt, TableDefinition def, ReadMode mode, boolean hot) {
    SnapshotView view;
    try {
      view = pin(rt, def, mode);
    } catch (MeterStoreException e) {
      if (!hot || !e.isRetryable()) {
        throw e;
      }
      return new Cold(null, e);
    }
    if (!hot && readsCurrentSnapshot(mode)) {
      requireNotBehindFloor(rt, def, view);
    }
    return new Cold(view, null);
  }

  /**
   * Refuses a current snapshot whose W lies below the committed watermark the hot tier recorded (a
   * table rolled back behind MeterStore's last commit): its answer would miss the readings in
   * between. Modes that read the hot tier check it against the committed watermark read with the
   * partitions; a mode that reads only the cold tier reads it here, and still answers while
   * PostgreSQL is unreachable: it then reports what the lake holds below its W, unchecked.
   */
  private static void requireNotBehindFloor(
      CatalogRuntime rt, TableDefinition def, SnapshotView view) {
    Instant committed;
    try {
      committed = rt.hot().partitions().committedWatermark(def);
    } catch (MeterStoreException e) {
      if (!e.isRetryable()) {
        throw e;
      }
      return;
    }
    try {
      view.watermarkNotBelow(committed);
    } catch (MeterStoreException e) {
      if (e.kind() == ErrorKind.INVARIANT_VIOLATED) {
        throw new Raced(committed, e);
      }
      throw e;
    }
  }

  /** Whether the mode reads the table's current snapshot (every mode but the as-of ones). */
  private static boolean readsCurrentSnapshot(ReadMode mode) {
    return switch (mode.kind()) {
      case AS_OF_SNAPSHOT, AS_OF_TAG, AS_OF_TIME -> false;
      default -> true;
    };
  }

  private static SnapshotView pin(CatalogRuntime rt, TableDefinition def, ReadMode mode) {
    try {
      return rt.coldTable(def).view(selector(mode));
    } catch (MeterStoreException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new MeterStoreException(
          ErrorKind.STORAGE, "Cannot load cold table " + def.name() + ": " + e, e);
    }
  }

  /** The cold snapshot a read mode reads: an as-of mode's, else the current one. */
  static SnapshotSelector selector(ReadMode mode) {
    return switch (mode.kind()) {
      case AS_OF_SNAPSHOT -> SnapshotSelector.snapshotId(mode.snapshotId());
      case AS_OF_TAG -> SnapshotSelector.tag(mode.tag());
      case AS_OF_TIME -> SnapshotSelector.asOf(mode.instant());
      default -> SnapshotSelector.current();
    };
  }

  /** Pins the partitions an execution reads above {@code boundary}, once they are known. */
  static ReaderPin pin(
      CatalogRuntime rt, TableDefinition def, List<PartitionInfo> partitions, Instant boundary) {
    if (partitions.isEmpty()) {
      return null;
    }
    Instant lower = partitions.get(0).lowerBound();
    if (boundary.isAfter(lower) && !boundary.equals(Instant.MAX)) {
      lower = boundary;
    }
    Instant upper = partitions.get(partitions.size() - 1).upperBound();
    return rt.hot().pins().pin(def.name(), lower, upper, rt.clock().instant(), rt.pinTtl());
  }
}
