package org.meterstore.reliability;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/** Everything a throwable would show someone: messages and {@code toString()} of its whole tree. */
final class Secrets {
  private Secrets() {}

  /**
   * The messages, {@code toString()}s and stack-trace texts of {@code t}, its causes and its
   * suppressed exceptions, recursively, one per line; empty for null.
   */
  static String everyMessage(Throwable t) {
    StringBuilder out = new StringBuilder();
    collect(t, out, Collections.newSetFromMap(new IdentityHashMap<>()));
    return out.toString();
  }

  private static void collect(Throwable t, StringBuilder out, Set<Throwable> seen) {
    if (t == null || !seen.add(t)) {
      return;
    }
    out.append(t).append('\n');
    out.append(t.getLocalizedMessage()).append('\n');
    collect(t.getCause(), out, seen);
    for (Throwable s : t.getSuppressed()) {
      collect(s, out, seen);
    }
  }
}
