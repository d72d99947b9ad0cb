package org.meterstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.meterstore.cli.output.Io;
import org.meterstore.cli.output.Progress;

class ProgressTest {
  private static Io io(StringWriter err, boolean interactive) {
    return new Io(
        new ByteArrayInputStream(new byte[0]),
        new PrintWriter(new StringWriter()),
        new PrintWriter(err),
        interactive);
  }

  @Test
  void onATerminalTheLineIsRedrawnInPlaceAndEnded() {
    StringWriter err = new StringWriter();
    try (Progress p = Progress.of(io(err, true), "archiving")) {
      p.update("8 windows");
      p.update("9 windows");
    }
    assertThat(err.toString())
        .isEqualTo("\rarchiving: 8 windows\rarchiving: 9 windows" + System.lineSeparator());
  }

  @Test
  void whenPipedNothingIsDrawn() {
    StringWriter err = new StringWriter();
    try (Progress p = Progress.of(io(err, false), "archiving")) {
      p.update("8 windows");
    }
    assertThat(err.toString()).isEmpty();
  }
}
