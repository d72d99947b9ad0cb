package org.meterstore.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue #19 item 9: {@code explain} in table format was 5,000 characters wide. */
class ExplainFoldTest {
  @Test
  void aLongPlanLineIsFoldedAfterCommasAndKeepsEveryCharacter() {
    StringBuilder sql = new StringBuilder("    MeterStoreHotScan(table=[strom], sql=[SELECT ");
    for (int i = 0; i < 300; i++) {
      sql.append("\"c").append(i).append("\", ");
    }
    sql.append("\"last\" FROM \"meterstore\".\"strom\"])");
    String line = sql.toString();

    List<String> folded = ExplainCommand.fold(line, ExplainCommand.WIDTH);

    assertThat(folded).hasSizeGreaterThan(15);
    assertThat(folded).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(120));
    assertThat(folded.get(0)).startsWith("    MeterStoreHotScan(").endsWith(",");
    assertThat(folded.subList(1, folded.size()))
        .allSatisfy(l -> assertThat(l).startsWith("        "));
    assertThat(String.join("", folded).replace(" ", "")).isEqualTo(line.replace(" ", ""));
  }

  @Test
  void aShortLineAndAWordLongerThanTheWidthAreKept() {
    assertThat(ExplainCommand.fold("  EnumerableLimit(fetch=[1])", 120))
        .containsExactly("  EnumerableLimit(fetch=[1])");
    String word = "x".repeat(300);
    List<String> folded = ExplainCommand.fold(word, 120);
    assertThat(folded).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(120));
    assertThat(String.join("", folded).strip().replace(" ", "")).isEqualTo(word);
  }
}
