/**
 * Unsupported internals: reading the watermark through the parent chain (the one walk, {@code
 * WatermarkReader}), picking the snapshot a selector names, the pinned snapshot view, listing
 * snapshots, re-stamping and expiry planned and guarded by MeterStore's policy.
 */
package org.meterstore.cold.internal.snapshot;
