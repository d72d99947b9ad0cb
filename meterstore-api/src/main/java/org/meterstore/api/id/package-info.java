/**
 * Identifiers of the German metering market as immutable values: the market location ({@link
 * org.meterstore.api.id.MaloId}), the metering location ({@link org.meterstore.api.id.MeloId}), the
 * measured channel ({@link org.meterstore.api.id.ObisCode}), the market partner that scopes a
 * version ({@link org.meterstore.api.id.MarketPartnerId}) and the ENTSO-E code of a party or area
 * ({@link org.meterstore.api.id.Eic}). Each is parsed once at the boundary with {@code parse},
 * which accepts the spellings people and messages use and keeps one canonical form, so everything
 * deeper compares, stores and keys on that form; a value that breaks a rule is refused with an
 * {@link org.meterstore.api.ErrorKind#INVALID_INPUT} error naming the value and the rule.
 */
package org.meterstore.api.id;
