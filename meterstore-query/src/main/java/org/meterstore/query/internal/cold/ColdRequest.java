package org.meterstore.query.internal.cold;

import java.util.List;
import org.apache.iceberg.expressions.Expression;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.snapshot.SnapshotView;
import org.meterstore.query.internal.cold.filter.ColdPred;

/**
 * One cold scan for the {@link ColdExecutor}: which snapshot, which rows, which columns.
 *
 * <p>{@code filter} plans the files and skips row groups; it must be valid before resolution (a
 * file or row group it rules out holds no version of a selected key). {@code before} must hold
 * exactly on the rows that take part in resolution (the read mode's predicates, the boundary and
 * predicates over the merge key and {@code version_scope}); {@code after} must hold exactly on the
 * winners. Without resolution both lists apply to every row. Values are bound ({@link ColdPred}).
 *
 * @param table the table
 * @param snapshot the pinned snapshot
 * @param filter the Iceberg filter for planning and pruning
 * @param before predicates that hold before resolution
 * @param after predicates that hold after resolution
 * @param resolve whether to keep only the winning version of each merge key and scope
 * @param columns the storage-order indexes the caller reads from each row (others may be null)
 */
public record ColdRequest(
    TableDefinition table,
    SnapshotView snapshot,
    Expression filter,
    List<ColdPred> before,
    List<ColdPred> after,
    boolean resolve,
    int[] columns) {

  /** Copies the lists. */
  public ColdRequest {
    before = List.copyOf(before);
    after = List.copyOf(after);
    columns = columns.clone();
  }
}
