/**
 * Keeping a deployment healthy over time: {@link org.meterstore.maintenance.Maintenance} and its
 * {@link org.meterstore.maintenance.MaintenanceBuilder maintenance loop}, which archives settled
 * windows from PostgreSQL to Iceberg for every table in turn, expires snapshots, checks the tiering
 * invariant and runs the retention sweep, reporting one {@link
 * org.meterstore.maintenance.outcome.TableOutcome row} per table. Everything takes the caller's
 * {@code now}; only a spawned loop reads a clock, through its injected {@link
 * java.time.InstantSource}.
 */
package org.meterstore.maintenance;
