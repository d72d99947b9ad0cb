package org.meterstore.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.meterstore.cli.output.Io;

/** Runs the command in-process against captured streams, as a person or a script would. */
final class Cli {
  private final Path config;

  Cli(Path config) {
    this.config = config;
  }

  /** Runs {@code args} after {@code --config <file>}. */
  Run run(String... args) {
    return runWithInput("", args);
  }

  /** Runs {@code args} with {@code stdin} on standard input. */
  Run runWithInput(String stdin, String... args) {
    List<String> all = new ArrayList<>(List.of("--config", config.toString()));
    all.addAll(List.of(args));
    return raw(stdin, all.toArray(String[]::new));
  }

  /**
   * Runs {@code args} after {@code --config <file>} as if a terminal were attached ({@link
   * Io#interactive()}), so progress lines are drawn on the captured standard error.
   */
  Run runInteractive(String... args) {
    List<String> all = new ArrayList<>(List.of("--config", config.toString()));
    all.addAll(List.of(args));
    return raw("", true, all.toArray(String[]::new));
  }

  /** Runs exactly {@code args}. */
  static Run raw(String stdin, String... args) {
    return raw(stdin, false, args);
  }

  private static Run raw(String stdin, boolean interactive, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    Io io =
        new Io(
            new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
            new PrintWriter(out),
            new PrintWriter(err),
            interactive);
    int code = Main.run(io, args);
    return new Run(code, out.toString(), err.toString());
  }

  /** What one run printed and returned. */
  record Run(int code, String out, String err) {
    /** The result document. */
    JsonNode json() {
      try {
        return new ObjectMapper().readTree(out);
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new UncheckedIOException(
            new java.io.IOException("not JSON: " + out + "\nstderr: " + err, e));
      }
    }

    @Override
    public String toString() {
      return "exit " + code + "\n--- out\n" + out + "--- err\n" + err;
    }
  }
}
