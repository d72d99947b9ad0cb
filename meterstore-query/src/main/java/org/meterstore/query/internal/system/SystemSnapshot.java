package org.meterstore.query.internal.system;

import java.time.Instant;
import java.util.List;

/**
 * The {@code system} relations as one refresh computed them, rows in Calcite's internal values.
 *
 * @param computedAt the {@code now} of the refresh
 */
public record SystemSnapshot(
    Instant computedAt,
    List<Object[]> tables,
    List<Object[]> config,
    List<Object[]> resolution,
    List<Object[]> snapshots,
    List<Object[]> seam,
    List<Object[]> tags,
    List<Object[]> erasures,
    List<Object[]> pins) {

  /** Copies the lists. */
  public SystemSnapshot {
    tables = List.copyOf(tables);
    config = List.copyOf(config);
    resolution = List.copyOf(resolution);
    snapshots = List.copyOf(snapshots);
    seam = List.copyOf(seam);
    tags = List.copyOf(tags);
    erasures = List.copyOf(erasures);
    pins = List.copyOf(pins);
  }
}
