package org.meterstore.query.internal.plan;

import java.util.List;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.query.internal.exec.Columns;
import org.meterstore.query.internal.exec.QueryContext;
import org.meterstore.query.internal.exec.Session;
import org.meterstore.query.internal.exec.TableState;
import org.meterstore.query.mode.ReadMode;

/**
 * The relation {@code T} (one row per reading, version-resolved over both tiers) or {@code
 * T_versions} (every stored version). Translating it resolves the table's state for the statement
 * (W, snapshot, partitions, pin) and yields a {@link MeterTableScan} for the rules to refine.
 */
public final class ReadingsTable extends AbstractTable implements TranslatableTable {
  private final Session session;
  private final TableDefinition def;
  private final boolean versions;
  private final ReadMode mode;

  /**
   * @param mode the read mode, or null for the connection's
   */
  public ReadingsTable(Session session, TableDefinition def, boolean versions, ReadMode mode) {
    this.session = session;
    this.def = def;
    this.versions = versions;
    this.mode = mode;
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    return Columns.rowType(def, typeFactory);
  }

  @Override
  public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
    QueryContext query = session.current();
    ReadMode effective = mode != null ? mode : query.defaultMode();
    TableState state = query.state(def, effective);
    return new MeterTableScan(
        context.getCluster(), relOptTable, query, state, !versions, List.of(), null);
  }
}
