package org.meterstore.api.table;

import java.util.ArrayList;
import java.util.List;

/**
 * The columns that decide which stored rows are versions of one another (DESIGN § 3.3), named once
 * for every place that groups or compares versions: the hot tier's {@code row_number()}, the cold
 * scan's resolution, the SQL published for other engines and the cold duplicate check.
 *
 * <p>A reading is identified by its {@linkplain TableDefinition#mergeKey() merge key}; its versions
 * are resolved within the merge key and {@code version_scope} (the {@linkplain #columns() group}),
 * by {@link VersionOrder}. A merge key has one version scope (one network operator), which the
 * write paths enforce.
 *
 * @param mergeKey the table's merge key, in order
 */
public record ResolutionKey(List<String> mergeKey) {
  /** Copies the list. */
  public ResolutionKey {
    mergeKey = List.copyOf(mergeKey);
  }

  /** The resolution key of {@code table}. */
  public static ResolutionKey of(TableDefinition table) {
    return new ResolutionKey(table.mergeKey());
  }

  /** The column that scopes versions: {@code version_scope}. */
  public String scope() {
    return StandardColumn.VERSION_SCOPE.columnName();
  }

  /**
   * The resolution group, in order: the merge key, then {@code version_scope}. Versions compete
   * only within one group ({@code PARTITION BY} these columns).
   */
  public List<String> columns() {
    List<String> out = new ArrayList<>(mergeKey);
    out.add(scope());
    return List.copyOf(out);
  }

  /**
   * The columns resolution reads: the {@linkplain #columns() group}, then {@code version} and
   * {@code recorded_at} ({@link VersionOrder}'s).
   */
  public List<String> readColumns() {
    List<String> out = new ArrayList<>(columns());
    out.add(StandardColumn.VERSION.columnName());
    out.add(StandardColumn.RECORDED_AT.columnName());
    return List.copyOf(out);
  }

  /**
   * One reading regardless of its start: the merge key without {@code from}. Spans of one reading
   * under one version must not overlap ({@code spans_do_not_overlap}).
   */
  public List<String> reading() {
    return mergeKey.stream().filter(c -> !c.equals(StandardColumn.FROM.columnName())).toList();
  }
}
