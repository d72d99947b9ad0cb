/**
 * Unsupported internals: reading the watermark through the parent chain, listing snapshots,
 * re-stamping and expiry planned and guarded by MeterStore's policy.
 */
package org.meterstore.cold.internal.snapshot;
