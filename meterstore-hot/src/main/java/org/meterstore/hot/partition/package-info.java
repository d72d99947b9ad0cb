/**
 * The hot tier's partitions as the archival cycle sees them: {@link
 * org.meterstore.hot.partition.Partitions} creates them ahead of writes (attached, never created in
 * place), lists them with their bounds and state, detaches and drops them under {@code
 * ddl_lock_timeout}, and keeps each table's floor, below which nothing is created. Kept apart from
 * writing because archival uses these primitives without writing a reading.
 */
package org.meterstore.hot.partition;
