/**
 * What maintenance reports, one typed {@link org.meterstore.maintenance.outcome.TableOutcome row}
 * per table (and one for the retention sweep): how the table's part of a cycle ended ({@link
 * org.meterstore.maintenance.outcome.TableOutcome.Status}), what it moved and reclaimed ({@link
 * org.meterstore.maintenance.outcome.TableOutcome.Counts}), the watermark it saw, the invariant
 * check and the failure. Its own package because both the archival run ({@code
 * org.meterstore.maintenance.archival}) and the loop's {@code MaintenanceOutcome} produce these
 * rows, and neither of those packages may depend on the other's side.
 */
package org.meterstore.maintenance.outcome;
