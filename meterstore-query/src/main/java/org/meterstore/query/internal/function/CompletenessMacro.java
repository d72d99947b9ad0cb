package org.meterstore.query.internal.function;

import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.plan.RelOptTable;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.TableMacro;
import org.apache.calcite.schema.TranslatableTable;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.query.internal.plan.MeterScanRel;
import org.meterstore.query.internal.state.Session;

/**
 * {@code TABLE(completeness('lastgang', '2026-01-01', '2026-01-31'))}: per reading series and
 * balancing day in the inclusive date range, the intervals expected (exact across DST) and
 * delivered, including the days a series known in the range delivered nothing (silent).
 */
final class CompletenessMacro implements TableMacro {
  private final Session session;

  CompletenessMacro(Session session) {
    this.session = session;
  }

  @Override
  public List<FunctionParameter> getParameters() {
    return List.of(param(0, "relation"), param(1, "first_day"), param(2, "last_day"));
  }

  private static FunctionParameter param(int ordinal, String name) {
    return new FunctionParameter() {
      @Override
      public int getOrdinal() {
        return ordinal;
      }

      @Override
      public String getName() {
        return name;
      }

      @Override
      public RelDataType getType(RelDataTypeFactory typeFactory) {
        return typeFactory.createJavaType(String.class);
      }

      @Override
      public boolean isOptional() {
        return false;
      }
    };
  }

  @Override
  public TranslatableTable apply(List<? extends Object> arguments) {
    TableDefinition def = session.runtime().table(String.valueOf(arguments.get(0)));
    // its source queries through this connection's session: the plan is not shared
    session.runtime().current().uncacheable();
    LocalDate first = date(arguments.get(1));
    LocalDate last = date(arguments.get(2));
    if (last.isBefore(first)) {
      throw MeterStoreException.invalid("last_day", last, "on or after first_day " + first);
    }
    return new Table(def, first, last);
  }

  private static LocalDate date(Object value) {
    try {
      return LocalDate.parse(String.valueOf(value));
    } catch (DateTimeParseException e) {
      throw MeterStoreException.invalid("day", value, "an ISO date such as 2026-01-31");
    }
  }

  private final class Table extends AbstractTable implements TranslatableTable {
    private final TableDefinition def;
    private final LocalDate first;
    private final LocalDate last;

    Table(TableDefinition def, LocalDate first, LocalDate last) {
      this.def = def;
      this.first = first;
      this.last = last;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory f) {
      return f.builder()
          .add("malo_id", SqlTypeName.VARCHAR)
          .add("obis_code", SqlTypeName.VARCHAR)
          .add("sparte", SqlTypeName.VARCHAR)
          .add("resolution", SqlTypeName.VARCHAR)
          .nullable(true)
          .add("balancing_day", SqlTypeName.DATE)
          .add("expected", SqlTypeName.BIGINT)
          .nullable(true)
          .add("actual", SqlTypeName.BIGINT)
          .add("missing", SqlTypeName.BIGINT)
          .nullable(true)
          .add("status", SqlTypeName.VARCHAR)
          .build();
    }

    @Override
    public RelNode toRel(RelOptTable.ToRelContext context, RelOptTable relOptTable) {
      Map<String, Object> terms = new LinkedHashMap<>();
      terms.put("table", def.name());
      terms.put("days", "[" + first + ", " + last + "]");
      return new MeterScanRel(
          context.getCluster(),
          relOptTable.getRowType(),
          "MeterCompleteness",
          new CompletenessSource(session, def, first, last),
          terms,
          1000);
    }
  }
}
