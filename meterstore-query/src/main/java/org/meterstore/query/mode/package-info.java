/**
 * What a query reads: the read modes of DESIGN § 7 ({@link org.meterstore.query.mode.ReadMode}:
 * current, as of a snapshot, tag or instant with an optional version ceiling, as known at an
 * instant, historical, operational) and the {@code meterstore.*} connection properties that choose
 * one ({@link org.meterstore.query.mode.QueryProperties}).
 */
package org.meterstore.query.mode;
