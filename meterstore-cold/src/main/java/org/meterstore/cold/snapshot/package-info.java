/**
 * The cold table's history as MeterStore sees it: snapshots in sequence-number order with the
 * watermark each one carries or inherits, and the result of an expiry run.
 */
package org.meterstore.cold.snapshot;
