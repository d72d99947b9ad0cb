/**
 * Archival planning: a pure function from the observed state of one table (watermark, hot
 * partitions, archival commit times, reader pins) and the caller's {@code now} to what a run must
 * do. Pure so that a dry run costs nothing and every rule is unit-tested without a database.
 */
package org.meterstore.maintenance.archival;
