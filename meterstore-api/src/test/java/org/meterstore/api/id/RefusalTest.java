package org.meterstore.api.id;

import static org.meterstore.api.id.Refusals.assertRefused;

import org.junit.jupiter.api.Test;

class RefusalTest {

  @Test
  void shortensAVeryLongValueInTheMessage() {
    String text = "1".repeat(100_000);

    assertRefused(
        () -> MaloId.parse(text),
        "MaLo-ID",
        "1".repeat(64) + "... (100000 characters)",
        "exactly 11 digits");
  }

  @Test
  void replacesControlCharactersSoTheMessageStaysOneLine() {
    assertRefused(
        () -> MaloId.parse("5123869678\n1"), "MaLo-ID", "5123869678?1", "exactly 11 digits");
  }
}
