/**
 * The hot tier in PostgreSQL: MeterStore's own schema, range partitions attached rather than
 * created, and batched, idempotent, integrity-checked writes. Start at {@link
 * org.meterstore.hot.HotStore}; configuration is {@link org.meterstore.hot.HotConfig} and {@link
 * org.meterstore.hot.HotSettings}. Everything under {@code org.meterstore.hot.internal} is
 * unsupported.
 */
package org.meterstore.hot;
