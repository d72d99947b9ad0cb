/**
 * Plumbing every hot-tier statement shares: quoting of validated identifiers, transactions with a
 * {@code SET LOCAL lock_timeout}, advisory-lock keys and the translation of {@code SQLException}
 * into {@link org.meterstore.api.MeterStoreException}. Unsupported internal API.
 */
package org.meterstore.hot.internal.sql;
