package org.meterstore.query.internal.system;

import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Linq4j;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.Schema;
import org.apache.calcite.schema.impl.AbstractTable;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.query.mode.QueryProperties;

/**
 * One in-memory {@code system} relation: the rows computed for the statement's connection (or by
 * the engine's last refresh), or an error naming the connection property and the command that
 * compute them when there are none ("cannot say" must not read as "nothing to report").
 */
final class SystemRelation extends AbstractTable implements ScannableTable {
  private final String name;
  private final Function<RelDataTypeFactory, RelDataType> rowType;
  private final Supplier<SystemSnapshot> snapshot;
  private final Function<SystemSnapshot, List<Object[]>> rows;

  SystemRelation(
      String name,
      Function<RelDataTypeFactory, RelDataType> rowType,
      Supplier<SystemSnapshot> snapshot,
      Function<SystemSnapshot, List<Object[]>> rows) {
    this.name = name;
    this.rowType = rowType;
    this.snapshot = snapshot;
    this.rows = rows;
  }

  @Override
  public RelDataType getRowType(RelDataTypeFactory typeFactory) {
    return rowType.apply(typeFactory);
  }

  /** {@code SYSTEM TABLE} in {@code DatabaseMetaData.getTables}. */
  @Override
  public Schema.TableType getJdbcTableType() {
    return Schema.TableType.SYSTEM_TABLE;
  }

  @Override
  public Enumerable<Object[]> scan(DataContext root) {
    SystemSnapshot current = snapshot.get();
    if (current == null) {
      throw new MeterStoreException(
          ErrorKind.QUERY,
          "Cannot read system."
              + name
              + ": it has not been computed for this connection; connect with "
              + QueryProperties.SYSTEM_AT
              + "=now (or an ISO-8601 instant such as 2026-02-01T00:00:00Z), or run the statement"
              + " with meterstore query, which computes it at --now");
    }
    return Linq4j.asEnumerable(rows.apply(current));
  }
}
