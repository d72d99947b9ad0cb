/**
 * Keeping a deployment healthy over time: the archival cycle that moves settled windows from
 * PostgreSQL to Iceberg, the maintenance loop that runs it for every table, and the retention
 * sweep. Everything takes the caller's {@code now}; only a spawned loop reads a clock.
 */
package org.meterstore.maintenance;
