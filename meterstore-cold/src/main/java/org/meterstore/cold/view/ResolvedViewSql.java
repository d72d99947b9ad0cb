package org.meterstore.cold.view;

import java.time.Instant;
import java.util.Map;
import java.util.OptionalLong;
import org.meterstore.api.table.TableDefinition;

/**
 * Renders the SQL of a table's resolved view: the federated, version-resolved query over both tiers
 * at one state. The cold tier publishes it; the query layer, which owns the SQL dialects, renders
 * it (ADR 0025).
 */
@FunctionalInterface
public interface ResolvedViewSql {
  /**
   * The view's SQL per Iceberg view dialect ({@value ResolvedView#SPARK}, {@value
   * ResolvedView#TRINO}) for {@code table} at {@code snapshotId} (empty before the first archival)
   * and its watermark {@code w}.
   */
  Map<String, String> render(TableDefinition table, OptionalLong snapshotId, Instant w);
}
