package org.meterstore.cli.output;

import java.io.PrintWriter;

/**
 * A progress line for long runs (archive catch-up, demo data generation, purge), redrawn in place
 * on the diagnostics stream when a person is watching and silent otherwise, so piped output and
 * logs stay clean. Not thread-safe.
 */
public final class Progress implements AutoCloseable {
  private final PrintWriter err;
  private final boolean shown;
  private final String label;
  private int lastLength;

  private Progress(PrintWriter err, boolean shown, String label) {
    this.err = err;
    this.shown = shown;
    this.label = label;
  }

  /** A progress line for {@code label}, drawn only when {@code io} is interactive. */
  public static Progress of(Io io, String label) {
    return new Progress(io.err(), io.interactive(), label);
  }

  /** A progress line that never draws. */
  public static Progress silent() {
    return new Progress(new PrintWriter(PrintWriter.nullWriter()), false, "");
  }

  /** Redraws the line with {@code status} after the label. */
  public void update(String status) {
    if (!shown) {
      return;
    }
    String line = label + ": " + status;
    String pad = " ".repeat(Math.max(0, lastLength - line.length()));
    err.print("\r" + line + pad);
    err.flush();
    lastLength = line.length();
  }

  /** Ends the line, so what follows starts on a fresh one. */
  @Override
  public void close() {
    if (shown && lastLength > 0) {
      err.println();
      err.flush();
      lastLength = 0;
    }
  }
}
