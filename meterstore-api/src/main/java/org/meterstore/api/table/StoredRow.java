package org.meterstore.api.table;

import java.math.BigDecimal;
import java.math.BigInteger;
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
    boolean subject = table.subjectColumn() != null;
    Object[] row = new Object[COLUMNS + extra.size() + (subject ? 1 : 0)];
    row[0] = r.maloId().toString();
    row[1] = r.meloId() == null ? null : r.meloId().toString();
    row[2] = obisText;
    row[3] = r.commodity().name();
    row[4] = r.from();
    row[5] = r.to();
    row[6] = r.value();
    row[7] = r.unit().name();
    row[8] = r.quality().name();
    row[9] = r.resolution() == null ? null : r.resolution().toString();
    row[10] = version;
    row[11] = scopeText;
    row[12] = stored.recordedAt();
    row[13] = stored.balancingDay();
    row[14] = r.sourceKind();
    row[15] = r.provenance();
    int i = COLUMNS;
    if (!extra.isEmpty()) {
      for (String v : extra.values()) {
        row[i++] = v;
      }
    }
    if (subject) {
      row[i] = r.subject();
    }
    return row;
  }
}
