package org.meterstore.api.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ResolutionKeyTest {
  @Test
  void theGroupIsTheMergeKeyThenTheScopeAndResolutionReadsTheVersionOrderToo() {
    TableDefinition table =
        TableDefinition.interval("messwerte")
            .withMeloInKey(true)
            .withExtraColumns(
                List.of(ExtraColumn.attribute("rn"), ExtraColumn.identity("register")));
    ResolutionKey key = ResolutionKey.of(table);

    assertThat(key.mergeKey()).isEqualTo(table.mergeKey());
    assertThat(key.columns())
        .containsExactly("malo_id", "melo_id", "obis_code", "from", "register", "version_scope");
    assertThat(key.readColumns())
        .containsExactly(
            "malo_id",
            "melo_id",
            "obis_code",
            "from",
            "register",
            "version_scope",
            "version",
            "recorded_at");
    assertThat(key.reading()).containsExactly("malo_id", "melo_id", "obis_code", "register");
    assertThat(key.scope()).isEqualTo("version_scope");
  }

  @Test
  void aPointTableIsKeyedByMeteringLocation() {
    assertThat(ResolutionKey.of(TableDefinition.point("zaehlerstand")).columns())
        .containsExactly("malo_id", "melo_id", "obis_code", "from", "version_scope");
  }
}
