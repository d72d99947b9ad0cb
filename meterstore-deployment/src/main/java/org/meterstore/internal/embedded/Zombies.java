package org.meterstore.internal.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether a process has exited but not been reaped. An orphaned PostgreSQL is the child of init,
 * and an init that reaps late (as in some containers) leaves it a zombie for seconds, which the JDK
 * still reports alive. Linux says so in {@code /proc/<pid>/stat}; elsewhere nothing is known and
 * the answer is no.
 */
final class Zombies {
  private Zombies() {}

  static boolean isZombie(long pid) {
    Path stat = Path.of("/proc", Long.toString(pid), "stat");
    try {
      String text = Files.readString(stat, StandardCharsets.US_ASCII);
      int close = text.lastIndexOf(')'); // after the command name, which may hold spaces
      return close > 0 && close + 2 < text.length() && text.charAt(close + 2) == 'Z';
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }
}
