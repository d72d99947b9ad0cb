package org.meterstore.bench;

import java.util.Properties;
import org.meterstore.maintenance.archival.ArchivalSettings;

/**
 * How the archival benchmark runs, beyond the profile's window size; parsed once from system
 * properties.
 *
 * @param baseline whether the {@code COPY TO} + Parquet baseline runs ({@code
 *     bench.archival.baseline}, default true). Without it the lines of that run have no baseline
 *     value and no ratio: for quick iterations on MeterStore's side only, never for a recorded run.
 * @param sourceChunkRows rows per keyset query of the archival run and of the read-alone line
 *     ({@code bench.archival.sourceChunkRows}, default {@link
 *     ArchivalSettings#DEFAULT_SOURCE_CHUNK_ROWS}), at least 1
 */
record ArchivalOptions(boolean baseline, int sourceChunkRows) {
  ArchivalOptions {
    if (sourceChunkRows < 1) {
      throw new IllegalArgumentException(
          "Invalid bench.archival.sourceChunkRows: " + sourceChunkRows + " (at least 1)");
    }
  }

  /** The options {@code properties} set; defaults for the keys they lack. */
  static ArchivalOptions from(Properties properties) {
    String baseline = properties.getProperty("bench.archival.baseline", "true").strip();
    if (!baseline.equals("true") && !baseline.equals("false")) {
      throw new IllegalArgumentException(
          "Invalid bench.archival.baseline: " + baseline + " (true or false)");
    }
    return new ArchivalOptions(
        Boolean.parseBoolean(baseline),
        Profile.positive(
            properties,
            "bench.archival.sourceChunkRows",
            ArchivalSettings.DEFAULT_SOURCE_CHUNK_ROWS));
  }
}
