package org.meterstore.reliability;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The log lines written while it is open, as an operator would read them: the test binding
 * (slf4j-simple) writes to {@code System.err}, which this replaces with a tee until {@link
 * #close()}. The suite's test classes run one after another, so no other test's lines mix in.
 */
final class LogCapture implements AutoCloseable {
  private final PrintStream original = System.err;
  private final ByteArrayOutputStream captured = new ByteArrayOutputStream();

  LogCapture() {
    OutputStream tee =
        new OutputStream() {
          @Override
          public void write(int b) {
            captured.write(b);
            original.write(b);
          }

          @Override
          public void write(byte[] b, int off, int len) {
            captured.write(b, off, len);
            original.write(b, off, len);
          }
        };
    System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
  }

  /** The lines so far. */
  List<String> lines() {
    System.err.flush();
    return captured.toString(StandardCharsets.UTF_8).lines().toList();
  }

  @Override
  public void close() {
    System.err.flush();
    System.setErr(original);
  }
}
