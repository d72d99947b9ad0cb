package org.meterstore.maintenance.archival;

import java.time.Instant;
import org.meterstore.api.MeterStoreException;

/**
 * What one archival run of one table did.
 *
 * @param table the table
 * @param status how it ended
 * @param windowsArchived windows committed by this run
 * @param rowsArchived rows those commits carried
 * @param watermark the cold watermark W as the run last read it (null when it could not be read)
 * @param partitionsDropped detached partitions reclaimed by this run
 * @param orphansReclaimed windows whose partition an interrupted earlier run had left detached and
 *     this run archived
 * @param invariantViolations hot rows found below W after the run (0 is the invariant); -1 when the
 *     check could not run
 * @param leaseWon whether this run held the table's lease
 * @param snapshotsExpired snapshots expired by this run (0 when expiry is off or the lease was
 *     lost)
 * @param failure why the run failed or was quarantined, or what it refused (stranded partitions);
 *     null otherwise
 */
public record ArchivalRun(
    String table,
    ArchivalStatus status,
    int windowsArchived,
    long rowsArchived,
    Instant watermark,
    int partitionsDropped,
    int orphansReclaimed,
    long invariantViolations,
    boolean leaseWon,
    int snapshotsExpired,
    MeterStoreException failure) {

  /** Whether the invariant check ran and found no hot row below W. */
  public boolean invariantHolds() {
    return invariantViolations == 0;
  }
}
