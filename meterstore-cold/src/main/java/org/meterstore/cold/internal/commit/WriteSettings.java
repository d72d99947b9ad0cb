package org.meterstore.cold.internal.commit;

import org.meterstore.cold.config.ColdConfig;
import org.meterstore.cold.config.CommitPolicy;

/**
 * The parts of {@link ColdConfig} that writers and committers need.
 *
 * @param chunkRows rows sorted in memory at once
 * @param targetFileSizeBytes the Parquet file size aimed at
 * @param policy MeterStore's commit retry
 */
public record WriteSettings(int chunkRows, long targetFileSizeBytes, CommitPolicy policy) {

  /** The settings of {@code config}. */
  public static WriteSettings of(ColdConfig config) {
    return new WriteSettings(
        config.chunkRows(), config.targetFileSizeBytes(), config.commitPolicy());
  }
}
