package org.meterstore.hot.internal.write;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** COPY's text format as the writer's large batches send it. */
class RowInserterTest {
  private static String text(String value) {
    StringBuilder out = new StringBuilder();
    RowInserter.appendCopyText(out, value);
    return out.toString();
  }

  @Test
  void nullIsBackslashN() {
    assertThat(text(null)).isEqualTo("\\N");
  }

  @Test
  void backslashTabLineFeedAndCarriageReturnAreEscapedAndNothingElse() {
    assertThat(text("a\\b\tc\nd\re")).isEqualTo("a\\\\b\\tc\\nd\\re");
    assertThat(text("\\N")).isEqualTo("\\\\N");
    assertThat(text("\"quoted\" 'and' Zähler, ; |")).isEqualTo("\"quoted\" 'and' Zähler, ; |");
    assertThat(text("")).isEmpty();
  }
}
