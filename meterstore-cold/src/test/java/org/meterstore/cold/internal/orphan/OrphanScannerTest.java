package org.meterstore.cold.internal.orphan;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OrphanScannerTest {
  @Test
  void locationsAreComparedWithoutSchemeAndLeadingSlashes() {
    assertThat(OrphanScanner.normalise("file:/tmp/wh/t/data/a.parquet"))
        .isEqualTo(OrphanScanner.normalise("file:///tmp/wh/t/data/a.parquet"))
        .isEqualTo("tmp/wh/t/data/a.parquet");
    assertThat(OrphanScanner.normalise("s3://bucket/wh/t/a.parquet"))
        .isEqualTo("bucket/wh/t/a.parquet");
    assertThat(OrphanScanner.normalise("s3://bucket/a"))
        .isNotEqualTo(OrphanScanner.normalise("s3://other/a"));
  }
}
