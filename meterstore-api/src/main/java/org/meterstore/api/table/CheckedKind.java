package org.meterstore.api.table;

import java.util.function.Function;
import org.meterstore.api.id.Eic;
import org.meterstore.api.id.MaloId;
import org.meterstore.api.id.MarketPartnerId;
import org.meterstore.api.id.MeloId;

/** The identifier rule a {@link ColumnRole#CHECKED} column's values must satisfy. */
public enum CheckedKind {
  /** A market location id (11 digits, check digit). */
  MALO(text -> MaloId.parse(text).toString()),
  /** A metering location id (33 characters, stored uppercase). */
  MELO(text -> MeloId.parse(text).toString()),
  /** An ENTSO-E energy identification code (16 characters, check character). */
  EIC(text -> Eic.parse(text).toString()),
  /** A BDEW market partner id (13 digits). */
  BDEW(text -> MarketPartnerId.parse(text).toString());

  private final Function<String, String> canonicaliser;

  CheckedKind(Function<String, String> canonicaliser) {
    this.canonicaliser = canonicaliser;
  }

  /**
   * The canonical form of {@code text}.
   *
   * @throws org.meterstore.api.MeterStoreException {@code INVALID_INPUT} when the rule fails
   */
  public String canonical(String text) {
    return canonicaliser.apply(text);
  }
}
