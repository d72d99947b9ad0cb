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
import org.meterstore.query.internal.state.QueryContext;
import org.meterstore.query.internal.state.Session;
import org.meterstore.query.mode.ReadMode;

/**
 * The relation {@code T} (one row per reading, version-resolved over both tiers) or {@code
 * T_versions} (every stored version). Translating it yields a {@link MeterTableScan} in the read
 * mode of the statement (or of the table function that named it) for the rules to refine; the
 * table's state (W, snapshot, partitions) is not read until an execution.
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
    QueryContext query = session.runtime().current();
    ReadMode effective = mode != null ? mode : query.defaultMode();
    query.planning(def.name());
    return new MeterTableScan(
        context.getCluster(),
        relOptTable,
        session.runtime(),
        def,
        effective,
        !versions,
        List.of(),
        null);
  }
}
