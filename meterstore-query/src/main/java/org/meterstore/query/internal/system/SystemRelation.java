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
import org.apache.calcite.schema.impl.AbstractTable;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;

/**
 * One in-memory {@code system} relation: the rows of the last refresh, or an error naming the call
 * to make when there has been none ("cannot say" must not read as "nothing to report").
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

  @Override
  public Enumerable<Object[]> scan(DataContext root) {
    SystemSnapshot current = snapshot.get();
    if (current == null) {
      throw new MeterStoreException(
          ErrorKind.QUERY,
          "Cannot read system."
              + name
              + ": it has not been computed; call QueryEngine.refreshSystemTables(now) first");
    }
    return Linq4j.asEnumerable(rows.apply(current));
  }
}
