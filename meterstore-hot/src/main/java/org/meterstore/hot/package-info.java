/**
 * The hot tier in PostgreSQL: MeterStore's own schema, range partitions attached rather than
 * created, and batched, idempotent, integrity-checked writes.
 */
package org.meterstore.hot;
