package org.meterstore.hot.internal.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
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
  void pointTablesCarryNoSpanConstraint() {
    assertThat(ExclusionConstraint.of(TableDefinition.point("zaehlerstand")))
        .containsExactly(ExclusionConstraint.ONE_OPERATOR_PER_READING);
  }
}
