/**
 * The archival cycle of one table (DESIGN § 6): {@link
 * org.meterstore.maintenance.archival.Archiver} runs it under the table's lease and reports a
 * {@link org.meterstore.maintenance.outcome.TableOutcome}; {@link
 * org.meterstore.maintenance.archival.ArchivalPlanner} is its pure planning step, a function of the
 * observed state (watermark, hot partitions, archival commit times, reader pins) and the caller's
 * {@code now}, so that a dry run costs nothing and every rule is unit-tested without a database.
 */
package org.meterstore.maintenance.archival;
