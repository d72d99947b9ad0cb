/**
 * The cold table's history as MeterStore sees it: snapshots in sequence-number order with the
 * watermark each one carries or inherits, the result of an expiry run, and the pinned, typed view
 * of one snapshot ({@link org.meterstore.cold.snapshot.SnapshotView}, chosen by a {@link
 * org.meterstore.cold.snapshot.SnapshotSelector}) through which the query layer plans and reads
 * without touching the Iceberg table's metadata itself.
 */
package org.meterstore.cold.snapshot;
