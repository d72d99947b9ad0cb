package org.meterstore.hot.internal.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.meterstore.api.calendar.Resolution;
import org.meterstore.api.table.TableDefinition;

class MigrationsTest {
  @Test
  void listsEveryBundledScriptInVersionOrder() throws IOException {
    Path folder = Path.of("src/main/resources").resolve(Migration.FOLDER);
    try (Stream<Path> files = Files.list(folder)) {
      List<String> onDisk = files.map(p -> p.getFileName().toString()).sorted().toList();
      assertThat(Migrations.SCRIPTS).isEqualTo(onDisk);
    }
    List<Migration> bundled = Migrations.bundled();
    assertThat(bundled.get(0).version()).isEqualTo(1);
    for (int i = 0; i < bundled.size(); i++) {
      if (i > 0) {
        // gaps are allowed (a version reserved for parallel work), going backwards is not
        assertThat(bundled.get(i).version()).isGreaterThan(bundled.get(i - 1).version());
      }
      assertThat(bundled.get(i).script()).contains("${schema}");
    }
  }

  @Test
  void physicalConstraintNamesFitPostgresIdentifiersForTheLongestTableName() {
    String longest = "t".repeat(TableDefinition.MAX_NAME_LENGTH) + "_2026_03_02_0000";
    for (ExclusionConstraint c : ExclusionConstraint.values()) {
      String physical = c.physicalName(longest);
      assertThat(physical.length()).isLessThanOrEqualTo(63);
      assertThat(ExclusionConstraint.fromPhysicalName(physical)).contains(c);
    }
  }

  @Test
  void newPartitionsCarryTheSpanConstraintOnlyAndNeverTheOperatorOne() {
    assertThat(ExclusionConstraint.of(TableDefinition.interval("lastgang")))
        .containsExactly(ExclusionConstraint.SPANS_DO_NOT_OVERLAP);
    assertThat(
            ExclusionConstraint.of(
                TableDefinition.interval("lastgang").withResolution(Resolution.PT15M)))
        .isEmpty();
    assertThat(ExclusionConstraint.of(TableDefinition.point("zaehlerstand"))).isEmpty();
  }
}
