/**
 * What the cold tier's writes take and report: the archival request with its window and lease
 * epoch, the outcome of an archival commit, the content digest the archival job re-checks against
 * its source, the result of a late-correction append, and the archival commits read back from the
 * table's metadata.
 */
package org.meterstore.cold.commit;
