package org.meterstore.api.table;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.meterstore.api.id.ObisCode;
import org.meterstore.api.reading.Reading;
import org.meterstore.api.reading.StoredReading;
import org.meterstore.api.reading.VersionScope;

/**
 * The row both tiers exchange for one stored reading: values in the order of {@link
 * TableDefinition#columns()}, with text as {@code String}, timestamptz as {@code Instant}, date as
 * {@code LocalDate} and decimals as {@code BigDecimal}.
 */
public final class StoredRow {
  private static final int COLUMNS = StandardColumn.values().length;

  private StoredRow() {}

  /**
   * The row of {@code stored} in {@code table}'s column order; the table's rules are checked first.
   *
   * @throws org.meterstore.api.MeterStoreException {@code INVALID_INPUT} when the table refuses the
   *     reading
   */
  public static Object[] of(TableDefinition table, StoredReading stored) {
    Reading r = stored.reading();
    return row(
        table,
        stored,
        r.obisCode().toString(),
        r.versionScope().toString(),
        new BigDecimal(stored.version().value()));
  }

  /**
   * A converter for many readings of {@code table}, as {@link #of} makes each row. It remembers the
   * text of the last OBIS code and version scope it converted and the decimal of the last version,
   * so a stream of readings that share them (an import, whose parser hands out one object per
   * distinct value) spells each once and its rows share them. Not thread-safe.
   */
  public static Function<StoredReading, Object[]> converter(TableDefinition table) {
    return new Function<>() {
      private ObisCode obis;
      private String obisText;
      private VersionScope scope;
      private String scopeText;
      private BigInteger version;
      private BigDecimal versionDecimal;

      @Override
      public Object[] apply(StoredReading stored) {
        Reading r = stored.reading();
        if (r.obisCode() != obis) {
          obis = r.obisCode();
          obisText = obis.toString();
        }
        if (r.versionScope() != scope) {
          scope = r.versionScope();
          scopeText = scope.toString();
        }
        if (stored.version().value() != version) {
          version = stored.version().value();
          versionDecimal = new BigDecimal(version);
        }
        return row(table, stored, obisText, scopeText, versionDecimal);
      }
    };
  }

  private static Object[] row(
      TableDefinition table,
      StoredReading stored,
      String obisText,
      String scopeText,
      BigDecimal version) {
    Reading r = stored.reading();
    Map<String, String> extra = table.accept(r);
    List<Object> row = new ArrayList<>(COLUMNS + extra.size() + 1);
    row.add(r.maloId().toString());
    row.add(r.meloId() == null ? null : r.meloId().toString());
    row.add(obisText);
    row.add(r.commodity().name());
    row.add(r.from());
    row.add(r.to());
    row.add(r.value());
    row.add(r.unit().name());
    row.add(r.quality().name());
    row.add(r.resolution() == null ? null : r.resolution().toString());
    row.add(version);
    row.add(scopeText);
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
