package org.meterstore.query.internal.plan;

import java.lang.reflect.Type;
import java.util.Set;
import org.apache.calcite.jdbc.CalcitePrepare;
import org.apache.calcite.prepare.CalcitePrepareImpl;
import org.meterstore.query.internal.state.CatalogRuntime;
import org.meterstore.query.internal.state.QueryContext;

/**
 * Calcite's preparation with MeterStore's plan cache in front: a SQL text planned once in a read
 * mode is served from the {@link PlanCache} afterwards, so a repeated statement and every
 * re-execution of a prepared statement skip parsing, validation, optimisation and code generation.
 * Each lookup, hit or miss, is recorded as {@code meterstore.query.plan_duration} with its {@code
 * plan_cache} attribute.
 */
public final class MeterPrepare extends CalcitePrepareImpl {
  private final CatalogRuntime runtime;
  private final PlanCache cache;

  public MeterPrepare(CatalogRuntime runtime, PlanCache cache) {
    this.runtime = runtime;
    this.cache = cache;
  }

  @Override
  public <T> CalcitePrepare.CalciteSignature<T> prepareSql(
      Context context, Query<T> query, Type elementType, long maxRowCount) {
    QueryContext statement = runtime.currentOrNull();
    if (statement == null || query.sql == null) {
      return super.prepareSql(context, query, elementType, maxRowCount);
    }
    long started = System.nanoTime();
    PlanCache.Key key =
        new PlanCache.Key(
            query.sql, statement.defaultMode(), statement.settings(), maxRowCount, elementType);
    boolean lookup = cache.enabled() && !statement.isExplaining();
    PlanCache.Entry hit = lookup ? cache.get(key) : null;
    if (lookup) {
      statement.forgetPlanWith(() -> cache.remove(key));
    }
    if (hit != null) {
      record(hit.tables(), started, "hit");
      @SuppressWarnings("unchecked") // stored under a key holding the same element type
      CalcitePrepare.CalciteSignature<T> signature =
          (CalcitePrepare.CalciteSignature<T>) hit.signature();
      return signature;
    }
    CalcitePrepare.CalciteSignature<T> signature =
        super.prepareSql(context, query, elementType, maxRowCount);
    Set<String> tables = statement.tablesPlanned();
    boolean stored = lookup && statement.cacheable();
    if (stored) {
      cache.put(key, new PlanCache.Entry(signature, tables));
    }
    record(tables, started, stored ? "miss" : "off");
    return signature;
  }

  private void record(Set<String> tables, long started, String cacheResult) {
    long nanos = System.nanoTime() - started;
    tables.forEach(t -> runtime.metrics().planned(t, nanos, cacheResult));
  }
}
