/**
 * The archival cycle of one table (DESIGN § 6): {@link
 * org.meterstore.maintenance.archival.Archiver} runs it under the table's lease and reports an
 * {@link org.meterstore.maintenance.archival.ArchivalRun}; {@link
 * org.meterstore.maintenance.archival.ArchivalPlanner} is its pure planning step, a function of the
 * observed state (watermark, hot partitions, archival commit times, reader pins) and the caller's
 * {@code now}, so that a dry run costs nothing and every rule is unit-tested without a database.
 * {@link org.meterstore.maintenance.archival.FaultHook} marks the step boundaries crash tests stop
 * a process at.
 */
package org.meterstore.maintenance.archival;
