package org.meterstore.cold.internal.drift;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.api.table.ColumnType;
import org.meterstore.cold.drift.DriftReport;
import org.meterstore.cold.drift.DriftVerdict;

class SchemaDriftTest {
  private static final List<ColumnSpec> CONFIGURED =
      List.of(
          new ColumnSpec("malo_id", ColumnType.TEXT, false),
          new ColumnSpec("value", ColumnType.DECIMAL_18_6, false),
          new ColumnSpec("note", ColumnType.TEXT, true));

  private static DriftReport against(Types.NestedField... fields) {
    return SchemaDrift.compare("t", CONFIGURED, new Schema(fields));
  }

  @Test
  void identicalSchemasAreCompatibleWithoutNotes() {
    DriftReport r =
        against(
            required(1, "malo_id", Types.StringType.get()),
            required(2, "value", Types.DecimalType.of(18, 6)),
            optional(3, "note", Types.StringType.get()));
    assertThat(r.verdict()).isEqualTo(DriftVerdict.COMPATIBLE);
    assertThat(r.acceptedDifferences()).isEmpty();
  }

  @Test
  void nullableDifferencesAndWiderPrecisionAreAccepted() {
    DriftReport r =
        against(
            required(1, "malo_id", Types.StringType.get()),
            required(2, "value", Types.DecimalType.of(20, 6)),
            optional(4, "extra", Types.StringType.get()));
    assertThat(r.isCompatible()).isTrue();
    assertThat(r.acceptedDifferences()).hasSize(3);
  }

  @Test
  void requiredDifferencesNarrowingAndScaleQuarantine() {
    DriftReport r =
        against(
            required(2, "value", Types.DecimalType.of(18, 4)),
            required(4, "tenant", Types.StringType.get()),
            required(3, "note", Types.StringType.get()));
    assertThat(r.verdict()).isEqualTo(DriftVerdict.QUARANTINED);
    assertThat(r.reasons())
        .anyMatch(s -> s.contains("required column malo_id is not in the cold table"))
        .anyMatch(s -> s.contains("decimal scale changed for value"))
        .anyMatch(s -> s.contains("required column tenant that is not configured"))
        .anyMatch(s -> s.contains("note is required in the cold table"));
  }

  @Test
  void anyOtherTypeChangeQuarantines() {
    DriftReport r =
        against(
            required(1, "malo_id", Types.LongType.get()),
            required(2, "value", Types.DecimalType.of(12, 6)));
    assertThat(r.reasons())
        .anyMatch(s -> s.contains("type changed for malo_id"))
        .anyMatch(s -> s.contains("decimal precision narrowed for value"));
  }

  @Test
  void anUnreadableSchemaIsUnknownAndNotCompatible() {
    DriftReport r = SchemaDrift.unknown("t", new IllegalStateException("metadata missing"));
    assertThat(r.verdict()).isEqualTo(DriftVerdict.UNKNOWN);
    assertThat(r.isCompatible()).isFalse();
    assertThat(r.reasons().get(0)).contains("metadata missing");
  }
}
