package org.meterstore.query.internal.exec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.hot.pin.ReaderPin;
import org.meterstore.query.mode.ReadMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state of one statement: each table it reads is resolved once per read mode (W read once, the
 * snapshot pinned, the hot partitions enumerated and pinned), however many plans the planner
 * explores and however often a prepared statement runs. {@link #close()} releases the reader pins;
 * the statement closes it. Thread-safe.
 */
public final class QueryContext implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(QueryContext.class);

  private final CatalogRuntime runtime;
  private final ReadMode defaultMode;
  private final Map<String, TableState> states = new LinkedHashMap<>();
  private boolean closed;

  /** A context reading in {@code defaultMode} unless a table function says otherwise. */
  public QueryContext(CatalogRuntime runtime, ReadMode defaultMode) {
    this.runtime = runtime;
    this.defaultMode = defaultMode;
  }

  public CatalogRuntime runtime() {
    return runtime;
  }

  /** The connection's read mode. */
  public ReadMode defaultMode() {
    return defaultMode;
  }

  /** The state of {@code def} in {@code mode}, resolved on first use. */
  public synchronized TableState state(TableDefinition def, ReadMode mode) {
    if (closed) {
      throw new IllegalStateException("statement closed");
    }
    String key = def.name() + "\u0000" + mode;
    TableState state = states.get(key);
    if (state == null) {
      state = TableStates.resolve(runtime, def, mode);
      states.put(key, state);
    }
    return state;
  }

  /** The names of the tables this statement resolved. */
  public synchronized Set<String> tablesRead() {
    Set<String> names = new LinkedHashSet<>();
    states.values().forEach(s -> names.add(s.def().name()));
    return names;
  }

  /** Releases the reader pins. Idempotent; a failed release is logged (the pin expires anyway). */
  @Override
  public void close() {
    List<ReaderPin> pins = new ArrayList<>();
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      states.values().stream().map(TableState::pin).filter(p -> p != null).forEach(pins::add);
    }
    for (ReaderPin pin : pins) {
      try {
        runtime.hot().pins().release(pin.id());
      } catch (RuntimeException e) {
        LOG.warn("Cannot release reader pin {} of {}: {}", pin.id(), pin.table(), e.toString());
      }
    }
  }
}
