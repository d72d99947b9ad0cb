package org.meterstore.cold.internal.commit;

import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.UpdateProperties;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.internal.catalog.TableAccess;
import org.meterstore.cold.internal.drift.SchemaDrift;
import org.meterstore.cold.internal.layout.TableLayout;
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
   * it: Iceberg's own retry would re-apply a MeterStore commit to a newer base with a stale W. A
   * table whose {@code commit.manifest.min-count-to-merge} nobody set gets {@link
   * TableLayout#MANIFEST_MERGE_COUNT} in the same update (see there).
   */
  public static Table withoutLibraryRetry(TableAccess access, Table table) {
    boolean retries = "0".equals(table.properties().get(TableProperties.COMMIT_NUM_RETRIES));
    boolean merge = table.properties().containsKey(TableProperties.MANIFEST_MIN_MERGE_COUNT);
    if (retries && merge) {
      return table;
    }
    UpdateProperties update = table.updateProperties();
    if (!retries) {
      LOG.info(
          "Setting {}=0 on cold table {} (MeterStore retries its own commits)",
          TableProperties.COMMIT_NUM_RETRIES,
          access.tableName());
      update.set(TableProperties.COMMIT_NUM_RETRIES, "0");
    }
    if (!merge) {
      update.set(
          TableProperties.MANIFEST_MIN_MERGE_COUNT,
          Integer.toString(TableLayout.MANIFEST_MERGE_COUNT));
    }
    update.commit();
    return access.load();
  }

  /** Throws {@code QUARANTINED} when {@code table}'s schema drifted from {@code definition}. */
  public static void requireNoDrift(TableDefinition definition, Table table) {
    SchemaDrift.compare(definition.name(), definition.columns(), table.schema())
        .requireCompatible();
  }
}
