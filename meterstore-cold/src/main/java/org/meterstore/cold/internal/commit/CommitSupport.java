package org.meterstore.cold.internal.commit;

import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.internal.catalog.TableAccess;
import org.meterstore.cold.internal.drift.SchemaDrift;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What MeterStore commits check before they write: that Iceberg will not retry on its own, and that
 * the table's schema has not drifted. The commit loop itself is {@link CommitLoop}.
 */
public final class CommitSupport {
  private static final Logger LOG = LoggerFactory.getLogger(CommitSupport.class);

  private CommitSupport() {}

  /**
   * The table with {@code commit.retry.num-retries=0}, setting it first when an operator changed
   * it: Iceberg's own retry would re-apply a MeterStore commit to a newer base with a stale W.
   */
  public static Table withoutLibraryRetry(TableAccess access, Table table) {
    if ("0".equals(table.properties().get(TableProperties.COMMIT_NUM_RETRIES))) {
      return table;
    }
    LOG.info(
        "Setting {}=0 on cold table {} (MeterStore retries its own commits)",
        TableProperties.COMMIT_NUM_RETRIES,
        access.tableName());
    table.updateProperties().set(TableProperties.COMMIT_NUM_RETRIES, "0").commit();
    return access.load();
  }

  /** Throws {@code QUARANTINED} when {@code table}'s schema drifted from {@code definition}. */
  public static void requireNoDrift(TableDefinition definition, Table table) {
    SchemaDrift.compare(definition.name(), definition.columns(), table.schema())
        .requireCompatible();
  }
}
