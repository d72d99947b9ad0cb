package org.meterstore.query.internal.exec;

import java.util.Map;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.meterstore.query.internal.state.CatalogRuntime;
import org.meterstore.query.internal.state.TableState;

/**
 * What a MeterStore scan relation hands to Calcite's generated code: the rows of one scan as arrays
 * of internal values in the relation's field order. A source is part of a plan, which is cached and
 * shared by executions: it holds nothing of one execution, and binds to the statement's state
 * ({@link CatalogRuntime#current()}) when {@link #scan} is called. Public because generated code
 * calls it.
 */
public interface ScanSource {
  /** The rows, read when enumerated; {@code root} carries the statement's parameters. */
  Enumerable<Object[]> scan(DataContext root);

  /**
   * What an execution in {@code state} would read, for {@code EXPLAIN} (never part of a cached
   * plan's identity); empty when nothing depends on the state.
   */
  default Map<String, Object> describe(TableState state) {
    return Map.of();
  }
}
