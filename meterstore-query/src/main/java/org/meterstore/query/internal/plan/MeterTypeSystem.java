package org.meterstore.query.internal.plan;

import org.apache.calcite.rel.type.RelDataTypeSystemImpl;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite's type system with decimals of up to 38 digits, so that {@code version} ({@code
 * DECIMAL(20,0)}) fits and sums of {@code value} ({@code DECIMAL(18,6)}) are exact. Named in the
 * {@code typeSystem} connection property, which reads {@link #INSTANCE}.
 */
public final class MeterTypeSystem extends RelDataTypeSystemImpl {
  /** The instance Calcite uses. */
  public static final MeterTypeSystem INSTANCE = new MeterTypeSystem();

  @Override
  public int getMaxPrecision(SqlTypeName typeName) {
    return typeName == SqlTypeName.DECIMAL ? 38 : super.getMaxPrecision(typeName);
  }
}
