package org.meterstore.api.reading;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.MeteringCalendar;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.commodity.Unit;
import org.meterstore.api.id.MaloId;
import org.meterstore.api.id.MeloId;
import org.meterstore.api.id.ObisCode;

/**
 * One interval or register reading as delivered to MeterStore (DESIGN § 3.2).
 *
 * <p>{@code recorded_at} and {@code balancing_day} are not part of a delivery: MeterStore sets them
 * at write time from the caller's {@code now}. Construction checks every rule that needs no table
 * definition; the table checks its time model and extra columns on write. Instants are UTC;
 * intervals are {@code [from, to)}.
 *
 * @param maloId the market location, required
 * @param meloId the metering location, or null
 * @param obisCode the channel, required
 * @param commodity the commodity, required
 * @param from interval start (inclusive) or register instant, required; the tiering key
 * @param to interval end (exclusive), null for point readings; must be after {@code from}
 * @param value the quantity: at most 12 integer digits and 6 decimals, normalised to scale 6
 * @param unit the unit, required and valid for the commodity
 * @param quality how the value came about, required
 * @param resolution the interval length, or null; when set, the interval must be aligned with it
 * @param version the operator's version, or null to get an arrival version at write time
 * @param versionScope operator and balancing month; must cover the interval
 * @param sourceKind where it came from ({@code MSCONS}, {@code SMGW}, {@code MANUAL}…), or null
 * @param provenance a JSON audit trail, or null
 * @param extra values of the table's declared extra columns by column name (never null)
 * @param subject a pseudonymous subject reference, or null
 */
public record Reading(
    MaloId maloId,
    MeloId meloId,
    ObisCode obisCode,
    Commodity commodity,
    Instant from,
    Instant to,
    BigDecimal value,
    Unit unit,
    Quality quality,
    Resolution resolution,
    Version version,
    VersionScope versionScope,
    String sourceKind,
    String provenance,
    Map<String, String> extra,
    String subject) {

  /** The earliest {@code from}: the epoch, the watermark of a table that has archived nothing. */
  public static final Instant EARLIEST = Instant.EPOCH;

  /** The end of the year 9999 (UTC): no {@code from} or {@code to} lies after it. */
  public static final Instant LATEST = Instant.parse("+10000-01-01T00:00:00Z");

  /** The largest value: 18 digits of which 6 are decimals. */
  public static final BigDecimal MAX_ABS_VALUE = new BigDecimal("999999999999.999999");

  /** Checks every rule of a delivery that does not depend on the table. */
  public Reading {
    require("malo_id", maloId);
    require("obis_code", obisCode);
    require("sparte", commodity);
    require("from", from);
    require("unit", unit);
    require("quality", quality);
    require("version_scope", versionScope);
    value = normaliseValue(value);
    requireWithinRange("from", from, !from.isBefore(LATEST));
    if (to != null) {
      requireWithinRange("to", to, to.isAfter(LATEST));
    }
    if (to != null && !to.isAfter(from)) {
      throw MeterStoreException.invalid("to", to, "the interval end must be after from " + from);
    }
    if (!commodity.accepts(unit)) {
      throw MeterStoreException.invalid(
          "unit", unit, commodity + " is measured in " + commodity.units());
    }
    if (resolution != null && !MeteringCalendar.isAligned(from, to, resolution, commodity)) {
      throw MeterStoreException.invalid(
          "interval",
          "[" + from + ", " + (to == null ? "" : to) + ")",
          "not aligned with its resolution " + resolution);
    }
    versionScope.requireCovers(from, to, commodity);
    extra = copyExtra(extra);
  }

  /**
   * Refuses an instant before 1970 (it would lie below the watermark of every table, even one that
   * has archived nothing) or after the year 9999 (beyond every four-digit calendar MeterStore and
   * its readers print).
   */
  private static void requireWithinRange(String field, Instant instant, boolean tooLate) {
    if (instant.isBefore(EARLIEST) || tooLate) {
      throw MeterStoreException.invalid(
          field, instant, "from 1970-01-01T00:00:00Z to the end of the year 9999 (UTC)");
    }
  }

  private static Map<String, String> copyExtra(Map<String, String> extra) {
    if (extra == null || extra.isEmpty()) {
      return Map.of();
    }
    for (Map.Entry<String, String> e : extra.entrySet()) {
      if (e.getKey() == null || e.getValue() == null) {
        throw MeterStoreException.invalid(
            "extra column " + e.getKey(), null, "a value; leave an absent column out");
      }
    }
    return Map.copyOf(extra);
  }

  private static void require(String field, Object value) {
    if (value == null) {
      throw MeterStoreException.invalid(field, null, "required");
    }
  }

  private static BigDecimal normaliseValue(BigDecimal value) {
    require("value", value);
    int scale = value.scale();
    if (scale >= 0 && scale <= 6 && value.precision() - scale <= 12) {
      // at most 6 decimals and |value| < 10^12: both rules hold without stripping zeros
      return scale == 6 ? value : value.setScale(6);
    }
    BigDecimal stripped = value.stripTrailingZeros();
    if (stripped.scale() > 6) {
      throw MeterStoreException.invalid("value", value.toPlainString(), "at most 6 decimals");
    }
    if (stripped.abs().compareTo(MAX_ABS_VALUE) > 0) {
      throw MeterStoreException.invalid(
          "value", value.toPlainString(), "at most 18 digits of which 6 are decimals");
    }
    return value.setScale(6);
  }

  /** Whether this is a point (register) reading: it has no interval end. */
  public boolean isPoint() {
    return to == null;
  }

  /** A builder; see {@link ReadingBuilder}. */
  public static ReadingBuilder builder() {
    return new ReadingBuilder();
  }

  /** A builder pre-filled with this reading's fields, to derive a variant. */
  public ReadingBuilder toBuilder() {
    return new ReadingBuilder(this);
  }

  @Override
  public String toString() {
    StringBuilder sb =
        new StringBuilder("Reading[")
            .append(maloId)
            .append(' ')
            .append(obisCode)
            .append(" from ")
            .append(from);
    if (meloId != null) {
      sb.append(" melo ").append(meloId);
    }
    if (!extra.isEmpty()) {
      sb.append(' ').append(new TreeMap<>(extra));
    }
    return sb.append(" version ")
        .append(version == null ? "(arrival)" : version)
        .append(" scope ")
        .append(versionScope)
        .append(']')
        .toString();
  }
}
