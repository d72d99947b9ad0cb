package org.meterstore.maintenance.archival;

import java.time.Instant;

/**
 * One window an archival run moves to Iceberg: the rows of {@code partition}, committed with the
 * watermark advanced from {@code from} to {@code to}. {@code from} may lie below the partition's
 * own lower bound when the run jumps an empty gap (no partition means no rows there).
 *
 * @param partition the hot partition holding the window's rows
 * @param from the watermark before the commit (inclusive start of the archived range)
 * @param to the watermark after the commit (exclusive end), the partition's upper bound
 * @param resumed whether the partition is already detached by an interrupted earlier run
 */
public record ArchivalWindow(String partition, Instant from, Instant to, boolean resumed) {}
