package org.meterstore.api.reading;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.commodity.Unit;
import org.meterstore.api.id.MaloId;
import org.meterstore.api.id.MarketPartnerId;
import org.meterstore.api.id.MeloId;
import org.meterstore.api.id.ObisCode;

/**
 * Builds a {@link Reading} from typed values or from text as it arrives in a delivery. Text is
 * parsed and canonicalised with the domain rules; every rule is checked by {@link #build()}. Not
 * thread-safe.
 */
public final class ReadingBuilder {
  private MaloId maloId;
  private MeloId meloId;
  private ObisCode obisCode;
  private Commodity commodity;
  private Instant from;
  private Instant to;
  private BigDecimal value;
  private Unit unit;
  private Quality quality = Quality.MEASURED;
  private Resolution resolution;
  private Version version;
  private VersionScope versionScope;
  private MarketPartnerId operator;
  private String sourceKind;
  private String provenance;
  private final Map<String, String> extra = new LinkedHashMap<>();
  private String subject;

  ReadingBuilder() {}

  ReadingBuilder(Reading r) {
    maloId = r.maloId();
    meloId = r.meloId();
    obisCode = r.obisCode();
    commodity = r.commodity();
    from = r.from();
    to = r.to();
    value = r.value();
    unit = r.unit();
    quality = r.quality();
    resolution = r.resolution();
    version = r.version();
    versionScope = r.versionScope();
    sourceKind = r.sourceKind();
    provenance = r.provenance();
    extra.putAll(r.extra());
    subject = r.subject();
  }

  public ReadingBuilder malo(String text) {
    this.maloId = MaloId.parse(text);
    return this;
  }

  public ReadingBuilder malo(MaloId id) {
    this.maloId = id;
    return this;
  }

  public ReadingBuilder melo(String text) {
    this.meloId = text == null ? null : MeloId.parse(text);
    return this;
  }

  public ReadingBuilder obis(String text) {
    this.obisCode = ObisCode.parse(text);
    return this;
  }

  public ReadingBuilder obis(ObisCode code) {
    this.obisCode = code;
    return this;
  }

  public ReadingBuilder commodity(Commodity commodity) {
    this.commodity = commodity;
    if (unit == null && commodity != null && commodity.units().size() == 1) {
      unit = commodity.units().iterator().next();
    }
    return this;
  }

  /** Sets {@code [from, to)}; {@code to} may be null for a point reading (prefer {@link #at}). */
  public ReadingBuilder interval(Instant from, Instant to) {
    this.from = from;
    this.to = to;
    return this;
  }

  /**
   * Makes this a point reading (the {@code POINT} time model of register tables): the register was
   * read at {@code instant} (UTC), so {@code from = instant} and {@code to} is null. Replaces any
   * interval set before; the table still checks its time model on write.
   */
  public ReadingBuilder at(Instant instant) {
    this.from = instant;
    this.to = null;
    return this;
  }

  /** Sets {@code from} and {@code to = from + resolution} for a fixed sub-daily resolution. */
  public ReadingBuilder interval(Instant from, Resolution resolution) {
    this.resolution = resolution;
    this.from = from;
    this.to =
        from.plus(
            resolution
                .fixedLength()
                .orElseThrow(
                    () ->
                        MeterStoreException.invalid(
                            "resolution", resolution, "has no fixed length; pass to explicitly")));
    return this;
  }

  public ReadingBuilder value(BigDecimal value) {
    this.value = value;
    return this;
  }

  public ReadingBuilder value(String value) {
    if (value == null) {
      this.value = null;
      return this;
    }
    BigDecimal plain = plainDecimal(value);
    if (plain != null) {
      this.value = plain;
      return this;
    }
    try {
      this.value = new BigDecimal(value.trim());
    } catch (NumberFormatException e) {
      throw MeterStoreException.invalid("value", value, "a decimal number");
    }
    return this;
  }

  /**
   * The decimal of the common spelling, an optional minus, digits and an optional point followed by
   * digits, eighteen digits at most: the same value and scale as {@code new BigDecimal(text)},
   * without its general parser. Null for any other text (the general parser decides).
   */
  static BigDecimal plainDecimal(String text) {
    int n = text.length();
    int i = n > 0 && text.charAt(0) == '-' ? 1 : 0;
    long unscaled = 0;
    int digits = 0;
    int scale = -1;
    for (; i < n; i++) {
      char c = text.charAt(i);
      if (c >= '0' && c <= '9') {
        if (++digits > 18) {
          return null;
        }
        unscaled = unscaled * 10 + (c - '0');
        scale += scale >= 0 ? 1 : 0;
      } else if (c == '.' && scale < 0 && digits > 0) {
        scale = 0;
      } else {
        return null;
      }
    }
    if (digits == 0 || scale == 0) {
      return null; // nothing, or a point with no digit after it
    }
    return BigDecimal.valueOf(text.charAt(0) == '-' ? -unscaled : unscaled, Math.max(scale, 0));
  }

  /** Sets the value from a double, refusing NaN and infinities. */
  public ReadingBuilder value(double value) {
    if (!Double.isFinite(value)) {
      throw MeterStoreException.invalid("value", value, "a finite number");
    }
    this.value = BigDecimal.valueOf(value);
    return this;
  }

  public ReadingBuilder unit(Unit unit) {
    this.unit = unit;
    return this;
  }

  public ReadingBuilder quality(Quality quality) {
    this.quality = quality;
    return this;
  }

  public ReadingBuilder resolution(Resolution resolution) {
    this.resolution = resolution;
    return this;
  }

  public ReadingBuilder version(Version version) {
    this.version = version;
    return this;
  }

  public ReadingBuilder version(String operatorVersion) {
    this.version = operatorVersion == null ? null : Version.operator(operatorVersion);
    return this;
  }

  public ReadingBuilder versionScope(VersionScope scope) {
    this.versionScope = scope;
    return this;
  }

  public ReadingBuilder versionScope(String scope) {
    this.versionScope = VersionScope.parse(scope);
    return this;
  }

  /**
   * Sets the network operator; unless a scope is set explicitly, the scope becomes this operator
   * and the balancing month of {@code from}.
   */
  public ReadingBuilder operator(String marketPartnerId) {
    this.operator = MarketPartnerId.parse(marketPartnerId);
    return this;
  }

  public ReadingBuilder sourceKind(String sourceKind) {
    this.sourceKind = sourceKind;
    return this;
  }

  public ReadingBuilder provenance(String provenance) {
    this.provenance = provenance;
    return this;
  }

  /** Sets the value of a declared extra column (identity, attribute, coded or checked). */
  public ReadingBuilder extra(String column, String value) {
    this.extra.put(column, value);
    return this;
  }

  public ReadingBuilder subject(String reference) {
    this.subject = reference;
    return this;
  }

  /**
   * Builds the reading.
   *
   * @throws MeterStoreException {@code INVALID_INPUT} naming the first rule broken
   */
  public Reading build() {
    VersionScope scope = versionScope;
    if (scope == null && operator != null && from != null && commodity != null) {
      scope = VersionScope.of(operator, from, commodity);
    }
    return new Reading(
        maloId,
        meloId,
        obisCode,
        commodity,
        from,
        to,
        value,
        unit,
        quality,
        resolution,
        version,
        scope,
        sourceKind,
        provenance,
        extra,
        subject);
  }
}
