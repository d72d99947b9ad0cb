package org.meterstore.maintenance.archival;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.meterstore.api.MeterStoreException;
import org.meterstore.hot.partition.DetachMode;

class ArchivalSettingsTest {
  @Test
  void defaultsAreConcurrentDetachAndFiftyThousandRowsPerQuery() {
    ArchivalSettings s = ArchivalSettings.defaults();
    assertThat(s.detachMode()).isEqualTo(DetachMode.CONCURRENTLY);
    assertThat(s.withDetachMode(DetachMode.PLAIN).detachMode()).isEqualTo(DetachMode.PLAIN);
    assertThat(s.sourceChunkRows()).isEqualTo(50_000);
    assertThat(s.holder()).isNotBlank();
  }

  @Test
  void refusesAnEmptyChunkAndABlankOrLongHolder() {
    ArchivalSettings s = ArchivalSettings.defaults();
    assertThatThrownBy(() -> s.withSourceChunkRows(0))
        .isInstanceOf(MeterStoreException.class)
        .hasMessageContaining("source chunk rows");
    assertThatThrownBy(() -> s.withHolder(" ")).hasMessageContaining("lease holder");
    assertThatThrownBy(() -> s.withHolder("h".repeat(201))).hasMessageContaining("lease holder");
  }
}
