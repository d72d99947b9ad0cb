package org.meterstore.api.table;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;

/**
 * The row both tiers exchange for one stored reading: values in the order of {@link
 * TableDefinition#columns()}, with text as {@code String}, timestamptz as {@code Instant}, date as
 * {@code LocalDate} and decimals as {@code BigDecimal}.
 */
public final class StoredRow {
  private StoredRow() {}

  /**
   * The row of {@code stored} in {@code table}'s column order; the table's rules are checked first.
   *
   * @throws org.meterstore.api.MeterStoreException {@code INVALID_INPUT} when the table refuses the
   *     reading
   */
  public static Object[] of(TableDefinition table, StoredReading stored) {
    Reading r = stored.reading();
    Map<String, String> extra = table.accept(r);
    List<Object> row = new ArrayList<>(table.columns().size());
    row.add(r.maloId().toString());
    row.add(r.meloId() == null ? null : r.meloId().toString());
    row.add(r.obisCode().toString());
    row.add(r.commodity().name());
    row.add(r.from());
    row.add(r.to());
    row.add(r.value());
    row.add(r.unit().name());
    row.add(r.quality().name());
    row.add(r.resolution() == null ? null : r.resolution().toString());
    row.add(new BigDecimal(stored.version().value()));
    row.add(r.versionScope().toString());
    row.add(stored.recordedAt());
    row.add(stored.balancingDay());
    row.add(r.sourceKind());
    row.add(r.provenance());
    row.addAll(extra.values());
    if (table.subjectColumn() != null) {
      row.add(r.subject());
    }
    return row.toArray();
  }
}
