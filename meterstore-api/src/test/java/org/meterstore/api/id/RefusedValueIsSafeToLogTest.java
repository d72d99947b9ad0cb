package org.meterstore.api.id;

import static org.meterstore.api.InvalidInput.assertInvalidMessage;
import static org.meterstore.api.InvalidInput.assertRefused;

import org.junit.jupiter.api.Test;

class RefusedValueIsSafeToLogTest {

  @Test
  void shortensAVeryLongValueInTheMessage() {
    String text = "1".repeat(100_000);

    assertInvalidMessage(
        () -> MaloId.parse(text),
        "Invalid MaLo-ID: '" + "1".repeat(64) + "'... (100000 characters) (exactly 11 digits)");
  }

  @Test
  void replacesControlCharactersSoTheMessageStaysOneLine() {
    assertRefused(
        () -> MaloId.parse("5123869678\n1"), "MaLo-ID", "5123869678?1", "exactly 11 digits");
  }
}
