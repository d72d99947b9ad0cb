package org.meterstore.query.internal.exec;

import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;

/**
 * What a MeterStore scan relation hands to Calcite's generated code: the rows of one tier scan as
 * arrays of internal values in the relation's field order. Public because generated code calls it.
 */
public interface ScanSource {
  /** The rows, read when enumerated; {@code root} carries the statement's parameters. */
  Enumerable<Object[]> scan(DataContext root);
}
