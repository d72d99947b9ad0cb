package org.meterstore.cold;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopTables;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.cold.internal.layout.TableLayout;

/**
 * A real Iceberg table of a MeterStore table definition in a local folder, with no catalog: the
 * cold layout's schema, sort order and properties, unpartitioned, for tests and probes of the
 * writers and readers that need files of a table but not its commit protocol.
 */
public final class LocalTables {
  private LocalTables() {}

  /**
   * Creates the table at {@code location} ({@code targetFileSizeBytes} as the layout's file size),
   * {@code extra} properties over the layout's.
   */
  public static Table create(
      Path location,
      TableDefinition definition,
      long targetFileSizeBytes,
      Map<String, String> extra) {
    Schema schema = TableLayout.schema(definition);
    Map<String, String> properties =
        new HashMap<>(TableLayout.properties(definition, targetFileSizeBytes));
    properties.putAll(extra);
    return new HadoopTables(new org.apache.hadoop.conf.Configuration())
        .create(
            schema,
            PartitionSpec.unpartitioned(),
            TableLayout.sortOrder(schema),
            properties,
            location.toString());
  }

  /** The same with the layout's properties only. */
  public static Table create(Path location, TableDefinition definition, long targetFileSizeBytes) {
    return create(location, definition, targetFileSizeBytes, Map.of());
  }
}
