package org.meterstore.query.internal.plan;

import com.google.common.collect.ImmutableMultimap;
import com.google.common.collect.Multimap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.calcite.schema.Function;
import org.apache.calcite.schema.Table;
import org.apache.calcite.schema.impl.AbstractSchema;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.query.internal.state.Session;

/**
 * The schema of one catalog: for each table {@code T} the relations {@code T} and {@code
 * T_versions}, the read-mode table functions ({@link ModeMacro}) and any further functions the
 * caller registers (calendar, OBIS, quality, completeness).
 */
public final class MeterSchema extends AbstractSchema {
  /** The suffix of the relation holding every stored version. */
  public static final String VERSIONS_SUFFIX = "_versions";

  private final Session session;
  private final Multimap<String, Function> extraFunctions;

  public MeterSchema(Session session, Multimap<String, Function> extraFunctions) {
    this.session = session;
    this.extraFunctions = extraFunctions;
  }

  @Override
  protected Map<String, Table> getTableMap() {
    Map<String, Table> tables = new LinkedHashMap<>();
    for (TableDefinition def : session.runtime().tables().values()) {
      tables.put(def.name(), new ReadingsTable(session, def, false, null));
      tables.put(def.name() + VERSIONS_SUFFIX, new ReadingsTable(session, def, true, null));
    }
    return tables;
  }

  @Override
  protected Multimap<String, Function> getFunctionMultimap() {
    ImmutableMultimap.Builder<String, Function> b = ImmutableMultimap.builder();
    ModeMacro.all(session).forEach(b::put);
    b.putAll(extraFunctions);
    return b.build();
  }
}
