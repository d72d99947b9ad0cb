package org.meterstore.cold.view;

import java.time.Instant;
import java.util.OptionalLong;

/**
 * One version of a resolved view: the state its SQL reads.
 *
 * @param versionId the Iceberg view version
 * @param snapshotId S, the cold snapshot it reads (empty before the first archival)
 * @param watermark W of S: cold below, hot from it up
 * @param publishedAt the {@code now} of the call that published it
 */
public record ViewState(
    int versionId, OptionalLong snapshotId, Instant watermark, Instant publishedAt) {}
