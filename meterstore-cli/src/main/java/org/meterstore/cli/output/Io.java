package org.meterstore.cli.output;

import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Where one run of the command reads and writes: standard input, the result stream, the diagnostics
 * stream, and whether a person is watching (progress is shown only then). Tests pass their own
 * buffers and {@code interactive = false}.
 *
 * @param in standard input ({@code query -} reads SQL from it)
 * @param out results: exactly one document per command
 * @param err errors, warnings and progress
 * @param interactive whether progress lines may be drawn on {@code err}
 */
public record Io(InputStream in, PrintWriter out, PrintWriter err, boolean interactive) {

  /** Checks the streams. */
  public Io {
    Objects.requireNonNull(in, "in");
    Objects.requireNonNull(out, "out");
    Objects.requireNonNull(err, "err");
  }

  /** The process's streams; interactive when a console is attached (not when piped). */
  public static Io system() {
    return new Io(
        System.in,
        new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true),
        new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true),
        System.console() != null);
  }
}
