package org.meterstore.cli;

import java.util.logging.Level;
import java.util.logging.Logger;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * Sends what libraries log through {@code java.util.logging} — the PostgreSQL driver, gRPC under
 * the SQL endpoint — to SLF4J, where the command's own lines go (stderr, {@code WARN} and above,
 * {@code INFO} with {@code --verbose}). Without it the JDK's console handler printed them in its
 * own two-line format at {@code INFO}, whatever {@code --verbose} said. The process's one logging
 * setup: {@link Main#main} installs it once, before the first command runs (ADR 0030).
 */
final class JulBridge {
  private JulBridge() {}

  /** Replaces the root logger's handlers by the bridge; records below the level are not made. */
  static void install(boolean verbose) {
    SLF4JBridgeHandler.removeHandlersForRootLogger();
    SLF4JBridgeHandler.install();
    // java.util.logging filters before the bridge: FINE records of the driver cost nothing
    Logger.getLogger("").setLevel(verbose ? Level.INFO : Level.WARNING);
  }
}
