package org.meterstore.cold.internal.drift;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.meterstore.api.table.ColumnSpec;
import org.meterstore.cold.drift.DriftReport;
import org.meterstore.cold.drift.DriftVerdict;
import org.meterstore.cold.internal.layout.TableLayout;

/**
 * Compares the configured columns with a cold table's schema by column name (DESIGN § 5, the seed's
 * "Schema evolution" table). A name is what the writer writes and what external engines query, so
 * an Iceberg rename (resolved by field id) is seen as a drop plus an add and judged as both.
 * Accepted: a nullable column present on one side only, a decimal whose precision the cold table
 * widened, a column the cold table made optional. Quarantined: a required column present on one
 * side only (an added NOT NULL column, a dropped required one, an identity column declared or
 * undeclared, a renamed required column), a narrowed decimal, a changed scale, any other type
 * change, a cold column required where the configuration allows null.
 */
public final class SchemaDrift {
  private SchemaDrift() {}

  /** The report for {@code table}'s configured {@code columns} against the cold {@code schema}. */
  public static DriftReport compare(String table, List<ColumnSpec> columns, Schema schema) {
    List<String> reasons = new ArrayList<>();
    List<String> accepted = new ArrayList<>();
    Set<String> configured = new HashSet<>();
    for (ColumnSpec c : columns) {
      configured.add(c.name());
      Types.NestedField field = schema.findField(c.name());
      if (field == null) {
        if (c.nullable()) {
          accepted.add("nullable column " + c.name() + " is not in the cold table");
        } else {
          reasons.add(
              "required column "
                  + c.name()
                  + " is not in the cold table (dropped or renamed there, or newly declared)");
        }
      } else {
        compareColumn(c, field, reasons, accepted);
      }
    }
    for (Types.NestedField f : schema.columns()) {
      if (!configured.contains(f.name())) {
        if (f.isOptional()) {
          accepted.add("the cold table has an extra nullable column " + f.name());
        } else {
          reasons.add(
              "the cold table has a required column "
                  + f.name()
                  + " that is not configured (added NOT NULL or renamed there, or undeclared)");
        }
      }
    }
    DriftVerdict verdict = reasons.isEmpty() ? DriftVerdict.COMPATIBLE : DriftVerdict.QUARANTINED;
    return new DriftReport(table, verdict, reasons, accepted);
  }

  /** The report for a cold table whose schema could not be read. */
  public static DriftReport unknown(String table, Throwable cause) {
    return new DriftReport(
        table,
        DriftVerdict.UNKNOWN,
        List.of("the cold table cannot report its schema: " + cause),
        List.of());
  }

  private static void compareColumn(
      ColumnSpec c, Types.NestedField field, List<String> reasons, List<String> accepted) {
    Type expected = TableLayout.icebergType(c.type());
    Type actual = field.type();
    if (!expected.equals(actual)) {
      compareTypes(c.name(), expected, actual, reasons, accepted);
    }
    if (c.nullable() && field.isRequired()) {
      reasons.add("column " + c.name() + " is required in the cold table but configured nullable");
    } else if (!c.nullable() && field.isOptional()) {
      accepted.add("required column " + c.name() + " is optional in the cold table");
    }
  }

  private static void compareTypes(
      String name, Type expected, Type actual, List<String> reasons, List<String> accepted) {
    String change = name + ": configured " + expected + ", cold " + actual;
    if (expected instanceof Types.DecimalType && actual instanceof Types.DecimalType) {
      Types.DecimalType e = (Types.DecimalType) expected;
      Types.DecimalType a = (Types.DecimalType) actual;
      if (e.scale() != a.scale()) {
        reasons.add("decimal scale changed for " + change);
      } else if (a.precision() > e.precision()) {
        accepted.add("decimal precision widened for " + change);
      } else {
        reasons.add("decimal precision narrowed for " + change);
      }
    } else {
      reasons.add("type changed for " + change);
    }
  }
}
