package org.meterstore.query.internal.exec;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.ColumnType;
import org.meterstore.api.table.ResolutionKey;
import org.meterstore.api.table.StandardColumn;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.query.internal.predicate.Pred;
import org.meterstore.query.mode.ReadMode;

/**
 * One scan as the plan fixed it: which table in which read mode, whether versions are resolved, the
 * predicates MeterStore can push, and the columns to return (storage-order indexes). It holds
 * nothing that changes with W: the table's state is bound when the scan runs.
 *
 * <p>With resolution only predicates over the merge key and {@code version_scope} may act before it
 * ({@link #below()}): they select whole groups of versions. A predicate on any other column ({@link
 * #above()}) would otherwise pick an older version whose value happens to match. The read mode's
 * own predicates ({@code recorded_at <=} for known-at, {@code version <=} for the ceiling)
 * deliberately act before resolution.
 *
 * @param def the table
 * @param mode the read mode
 * @param resolve whether versions are resolved ({@code T}) or all returned ({@code T_versions})
 * @param preds the translated conjuncts (Calcite's filter stays above the scan as well)
 * @param projects the storage-order indexes of the returned columns, in output order
 */
public record ScanSpec(
    TableDefinition def, ReadMode mode, boolean resolve, List<Pred> preds, int[] projects) {

  /** Copies the lists. */
  public ScanSpec {
    preds = List.copyOf(preds);
    projects = projects.clone();
  }

  /** This scan reading {@code columns} instead. */
  public ScanSpec withProjects(int[] columns) {
    return new ScanSpec(def, mode, resolve, preds, columns);
  }

  /** The index of {@code column} in storage order. */
  public int column(StandardColumn column) {
    return Columns.indexOf(def(), column.columnName());
  }

  /** The columns a resolution group is made of: the merge key and {@code version_scope}. */
  public BitSet groupColumns() {
    return indexes(ResolutionKey.of(def()).columns());
  }

  /** The predicates that may act before resolution (all of them without resolution). */
  public List<Pred> below() {
    return split(true);
  }

  /** The predicates that must act after resolution (none without resolution). */
  public List<Pred> above() {
    return split(false);
  }

  private List<Pred> split(boolean below) {
    BitSet group = groupColumns();
    List<Pred> out = new ArrayList<>();
    for (Pred p : preds) {
      BitSet cols = p.columns();
      cols.andNot(group);
      boolean groupOnly = cols.isEmpty();
      if (!resolve ? below : groupOnly == below) {
        out.add(p);
      }
    }
    return out;
  }

  /** The read mode's own predicates, applied before resolution. */
  public List<Pred> modePreds() {
    List<Pred> out = new ArrayList<>();
    if (mode.kind() == ReadMode.Kind.KNOWN_AT) {
      out.add(
          new Pred.Cmp(
              column(StandardColumn.RECORDED_AT),
              Pred.Op.LE,
              new Pred.Literal(mode.instant().toEpochMilli())));
    }
    if (mode.versionCeiling() != null) {
      out.add(
          new Pred.Cmp(
              column(StandardColumn.VERSION),
              Pred.Op.LE,
              new Pred.Literal(new BigDecimal(mode.versionCeiling()))));
    }
    return out;
  }

  /** The columns resolution reads: group, {@code version}, {@code recorded_at}. */
  public BitSet resolutionColumns() {
    return indexes(ResolutionKey.of(def()).readColumns());
  }

  private BitSet indexes(List<String> names) {
    BitSet bits = new BitSet();
    names.forEach(c -> bits.set(Columns.indexOf(def(), c)));
    return bits;
  }

  /** The name of storage column {@code index}. */
  public String name(int index) {
    return def().columns().get(index).name();
  }

  /** The type of storage column {@code index}. */
  public ColumnType type(int index) {
    ColumnSpec c = def().columns().get(index);
    return c.type();
  }

  /** The storage index of {@code from}. */
  public int fromColumn() {
    return column(StandardColumn.FROM);
  }
}
