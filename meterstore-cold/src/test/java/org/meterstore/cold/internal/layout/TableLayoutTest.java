package org.meterstore.cold.internal.layout;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.junit.jupiter.api.Test;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.ExtraColumn;
import org.meterstore.api.table.TableDefinition;

class TableLayoutTest {
  private static final TableDefinition TABLE =
      TableDefinition.interval("lastgang")
          .withExtraColumns(
              List.of(ExtraColumn.identity("tenant"), ExtraColumn.attribute("comment")));

  @Test
  void theSchemaFollowsTheColumnsInOrderWithTheirNullability() {
    Schema schema = TableLayout.schema(TABLE);
    List<ColumnSpec> columns = TABLE.columns();
    assertThat(schema.columns()).hasSameSizeAs(columns);
    for (int i = 0; i < columns.size(); i++) {
      assertThat(schema.columns().get(i).name()).isEqualTo(columns.get(i).name());
      assertThat(schema.columns().get(i).isOptional()).isEqualTo(columns.get(i).nullable());
      assertThat(schema.columns().get(i).type())
          .isEqualTo(TableLayout.icebergType(columns.get(i).type()));
    }
    assertThat(schema.findField("version").type().toString()).isEqualTo("decimal(20, 0)");
    assertThat(schema.findField("balancing_day").type().toString()).isEqualTo("date");
  }

  @Test
  void thePartitionSpecIsTheIdentityColumnsThenTheMonthOfFrom() {
    Schema schema = TableLayout.schema(TABLE);
    PartitionSpec spec = TableLayout.spec(TABLE, schema);
    assertThat(TableLayout.describe(spec, schema)).isEqualTo("[identity(tenant), month(from)]");
    assertThat(TableLayout.describe(TableLayout.sortOrder(schema), schema))
        .isEqualTo("[malo_id asc nulls first, from asc nulls first]");
  }
}
