package org.meterstore.query.internal.plan;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.TableMacro;
import org.apache.calcite.schema.TranslatableTable;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.query.internal.state.Session;
import org.meterstore.query.mode.QueryProperties;
import org.meterstore.query.mode.ReadMode;

/**
 * A read mode chosen per statement: {@code TABLE(as_of_snapshot('lastgang', 42))} reads {@code
 * lastgang} as snapshot 42 holds it, whatever the connection's mode. The first argument names the
 * relation ({@code T} or {@code T_versions}); arguments must be literals. Every macro takes an
 * optional last argument, the version ceiling as a string of digits.
 */
final class ModeMacro implements TableMacro {
  private enum Kind {
    AS_OF_SNAPSHOT(Long.class),
    AS_OF_TAG(String.class),
    AS_OF_TIME(String.class),
    KNOWN_AT(String.class),
    HISTORICAL(null),
    OPERATIONAL(null),
    CURRENT(null);

    final Class<?> argType;

    Kind(Class<?> argType) {
      this.argType = argType;
    }
  }

  private final Session session;
  private final Kind kind;

  private ModeMacro(Session session, Kind kind) {
    this.session = session;
    this.kind = kind;
  }

  /** Every macro by its SQL name ({@code as_of_snapshot}, … , {@code current_state}). */
  static Map<String, TableMacro> all(Session session) {
    Map<String, TableMacro> macros = new LinkedHashMap<>();
    for (Kind k : Kind.values()) {
      String name =
          k == Kind.CURRENT ? "current_state" : k.name().toLowerCase(java.util.Locale.ROOT);
      macros.put(name, new ModeMacro(session, k));
    }
    return macros;
  }

  @Override
  public List<FunctionParameter> getParameters() {
    List<FunctionParameter> params = new java.util.ArrayList<>();
    params.add(new Param(0, "relation", String.class, false));
    if (kind.argType != null) {
      params.add(new Param(1, argName(), kind.argType, false));
    }
    params.add(new Param(params.size(), "version_ceiling", String.class, true));
    return params;
  }

  private String argName() {
    switch (kind) {
      case AS_OF_SNAPSHOT:
        return "snapshot_id";
      case AS_OF_TAG:
        return "tag";
      default:
        return "instant";
    }
  }

  @Override
  public TranslatableTable apply(List<? extends Object> arguments) {
    String relation = String.valueOf(arguments.get(0));
    boolean versions = relation.endsWith(MeterSchema.VERSIONS_SUFFIX);
    String name =
        versions
            ? relation.substring(0, relation.length() - MeterSchema.VERSIONS_SUFFIX.length())
            : relation;
    TableDefinition def = session.runtime().table(name);
    Object arg = kind.argType == null ? null : arguments.get(1);
    Object ceiling = arguments.get(arguments.size() - 1);
    ReadMode mode = mode(arg);
    if (ceiling != null) {
      mode = mode.withVersionCeiling(QueryProperties.version(ceiling.toString()));
    }
    return new ReadingsTable(session, def, versions, mode);
  }

  private ReadMode mode(Object arg) {
    switch (kind) {
      case AS_OF_SNAPSHOT:
        return ReadMode.asOfSnapshot(((Number) arg).longValue());
      case AS_OF_TAG:
        return ReadMode.asOfTag(String.valueOf(arg));
      case AS_OF_TIME:
        return ReadMode.asOfTime(QueryProperties.instant(String.valueOf(arg)));
      case KNOWN_AT:
        return ReadMode.knownAt(QueryProperties.instant(String.valueOf(arg)));
      case HISTORICAL:
        return ReadMode.historical();
      case OPERATIONAL:
        return ReadMode.operational();
      default:
        return ReadMode.current();
    }
  }

  /** One macro parameter. */
  private record Param(int ordinal, String name, Class<?> type, boolean optional)
      implements FunctionParameter {
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
      return typeFactory.createTypeWithNullability(typeFactory.createJavaType(type), optional);
    }

    @Override
    public boolean isOptional() {
      return optional;
    }
  }
}
