package org.meterstore.query.internal.state;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.partition.PartitionInfo;
import org.meterstore.hot.pin.ReaderPin;
import org.meterstore.query.internal.predicate.FromRange;
import org.meterstore.query.mode.ReadMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One planning or one execution of a statement. Executing, each table it reads is resolved once per
 * read mode on first use (W read once, the snapshot pinned, the hot partitions enumerated and
 * pinned), so every scan of the execution — the hot and the cold side of a split, a self-join —
 * sees the same W. Planning resolves nothing (plans do not depend on W), except for {@code
 * EXPLAIN}, whose plan text shows what an execution would read now: it resolves states without
 * pinning. {@link #close()} releases the reader pins; the statement closes it when the execution's
 * result set closes. Thread-safe.
 */
public final class QueryContext implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(QueryContext.class);

  private final CatalogRuntime runtime;
  private final ReadMode defaultMode;
  private final String settings;
  private final Object systemSnapshot;
  private final Map<String, TableState> states = new LinkedHashMap<>();
  private boolean closed;
  private boolean explaining;
  private boolean cacheable = true;
  private Runnable forgetPlan = () -> {};
  private final Set<String> planned = new LinkedHashSet<>();
  private final List<ReaderPin> extraPins = new ArrayList<>();

  /**
   * The connection of a hot scan that finished while this execution still held pins, its read
   * transaction open: {@link #close()} ends that transaction and releases the pins in one round
   * trip on it. Null when none.
   */
  private Connection parked;

  /**
   * A context reading in {@code defaultMode} unless a table function says otherwise, for a
   * connection whose planner {@code settings} (its Calcite properties, as text) are given and whose
   * own {@code system} relations are {@code systemSnapshot} (opaque here; null for none).
   */
  public QueryContext(
      CatalogRuntime runtime, ReadMode defaultMode, String settings, Object systemSnapshot) {
    this.runtime = runtime;
    this.defaultMode = defaultMode;
    this.settings = settings;
    this.systemSnapshot = systemSnapshot;
  }

  /**
   * The {@code system} relations of this statement's connection (computed when it opened with
   * {@code meterstore.system_at}), else the engine's last refresh; null when there is neither. Read
   * at execution, so a plan shared between connections reads each one's own.
   */
  public Object systemSnapshot() {
    return systemSnapshot != null ? systemSnapshot : runtime.systemSnapshot().get();
  }

  /** The connection's planner settings, as text (part of a cached plan's key). */
  public String settings() {
    return settings;
  }

  /** Marks this context as planning an {@code EXPLAIN}: states resolve without pins. */
  public synchronized void explaining() {
    explaining = true;
  }

  /** Whether this context plans an {@code EXPLAIN}. */
  public synchronized boolean isExplaining() {
    return explaining;
  }

  /** Marks the plan being made as bound to its connection, so it is not cached. */
  public synchronized void uncacheable() {
    cacheable = false;
  }

  /** Whether the plan made in this context may be shared (false for {@code EXPLAIN}). */
  /** What drops this statement's plan from the plan cache (set by the preparation). */
  public synchronized void forgetPlanWith(Runnable forget) {
    this.forgetPlan = forget;
  }

  /**
   * Drops this statement's plan from the plan cache: its generated class failed to initialise (a
   * constant expression that throws, such as {@code 1/0}) and would fail every later execution with
   * a bare {@code NoClassDefFoundError}; planned again, it fails with the real error.
   */
  public void forgetPlan() {
    Runnable forget;
    synchronized (this) {
      forget = forgetPlan;
    }
    forget.run();
  }

  public synchronized boolean cacheable() {
    return cacheable && !explaining;
  }

  public CatalogRuntime runtime() {
    return runtime;
  }

  /** The connection's read mode. */
  public ReadMode defaultMode() {
    return defaultMode;
  }

  /** The state of {@code def} in {@code mode}, resolved on first use without a range to pin. */
  public TableState state(TableDefinition def, ReadMode mode) {
    return state(def, mode, FromRange.EMPTY);
  }

  /**
   * The state of {@code def} in {@code mode}, resolved on first use; the first resolution pins the
   * hot window {@code range} reads above W in the same round trip that lists the partitions (unless
   * this context plans an {@code EXPLAIN}).
   */
  public synchronized TableState state(TableDefinition def, ReadMode mode, FromRange range) {
    if (closed) {
      throw new IllegalStateException("statement closed");
    }
    String key = def.name() + "\u0000" + mode;
    TableState state = states.get(key);
    if (state == null) {
      state = TableStates.resolve(runtime, def, mode, !explaining, range);
      states.put(key, state);
    }
    return state;
  }

  /**
   * The reader pin that keeps {@code partitions} of {@code state} (the ones a hot scan of this
   * execution reads) from being dropped: the state's own pin when it overlaps every one of them,
   * else one more pin taken now and released with the others. Null while planning an {@code
   * EXPLAIN} or for no partitions.
   */
  public ReaderPin pinFor(TableState state, List<PartitionInfo> partitions) {
    if (partitions.isEmpty()) {
      return null;
    }
    synchronized (this) {
      if (explaining) {
        return null;
      }
      List<ReaderPin> held = new ArrayList<>(extraPins);
      if (state.pin() != null) {
        held.add(0, state.pin());
      }
      for (ReaderPin pin : held) {
        if (pin.table().equals(state.def().name()) && coversAll(pin, partitions)) {
          return pin;
        }
      }
    }
    ReaderPin pin = TableStates.pin(runtime, state.def(), partitions, state.boundary());
    synchronized (this) {
      extraPins.add(pin);
      if (!closed) {
        return pin;
      }
    }
    TableStates.release(runtime, pin);
    throw new IllegalStateException("statement closed");
  }

  private static boolean coversAll(ReaderPin pin, List<PartitionInfo> partitions) {
    return partitions.stream().allMatch(p -> pin.overlaps(p.lowerBound(), p.upperBound()));
  }

  /** Records that the plan being made reads {@code table}. */
  public synchronized void planning(String table) {
    planned.add(table);
  }

  /** The tables the plan made in this context reads, in the order planned. */
  public synchronized Set<String> tablesPlanned() {
    return java.util.Collections.unmodifiableSet(new LinkedHashSet<>(planned));
  }

  /**
   * Takes over {@code connection}, whose hot scan of this execution has finished with its read
   * transaction still open, when this execution holds pins to release: {@link #close()} then ends
   * the transaction and releases them in one round trip, and closes the connection. False when
   * there is nothing to release or the execution closed already: the caller ends it itself.
   */
  public boolean park(Connection connection) {
    synchronized (this) {
      if (closed || parked != null || pins().isEmpty()) {
        return false;
      }
      parked = connection;
      return true;
    }
  }

  private List<ReaderPin> pins() {
    List<ReaderPin> pins = new ArrayList<>();
    states.values().stream().map(TableState::pin).filter(p -> p != null).forEach(pins::add);
    pins.addAll(extraPins);
    return pins;
  }

  /**
   * Releases the reader pins: on the parked hot connection when there is one (the same round trip
   * ends its transaction), else on a connection of their own. Idempotent; a failed release is
   * logged (the pin expires anyway).
   */
  @Override
  public void close() {
    List<ReaderPin> pins;
    Connection connection;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      pins = pins();
      connection = parked;
      parked = null;
    }
    if (connection != null) {
      releaseOn(connection, pins);
      return;
    }
    for (ReaderPin pin : pins) {
      try {
        runtime.hot().pins().release(pin.id());
      } catch (RuntimeException e) {
        LOG.warn("Cannot release reader pin {} of {}: {}", pin.id(), pin.table(), e.toString());
      }
    }
  }

  private void releaseOn(Connection connection, List<ReaderPin> pins) {
    boolean released = false;
    try {
      runtime.hot().pins().releaseAfter(connection, pins.stream().map(ReaderPin::id).toList());
      released = true;
    } catch (RuntimeException e) {
      LOG.warn("Cannot release reader pins {}: {}", pins, e.toString());
    } finally {
      try {
        if (!released) {
          connection.rollback();
        }
      } catch (SQLException ignored) {
        // the pool discards a broken connection
      }
      try {
        connection.close();
      } catch (SQLException ignored) {
        // nothing left to do
      }
    }
  }
}
