package org.meterstore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * The PostgreSQL driver and gRPC log through java.util.logging; in the command their records go
 * through SLF4J (slf4j-simple, stderr), at the command's level (issue #38).
 */
class JulBridgeTest {
  @AfterEach
  void restoreTheJdkDefaults() throws Exception {
    SLF4JBridgeHandler.uninstall();
    LogManager.getLogManager().readConfiguration();
  }

  @Test
  void aDriverWarningIsAnSlf4jLineAndItsInfoIsNotMade() {
    PrintStream err = System.err;
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    System.setErr(new PrintStream(buffer, true, StandardCharsets.UTF_8));
    try {
      JulBridge.install(false);
      Logger driver = Logger.getLogger("org.postgresql.Driver");
      driver.warning("bridged warning");
      driver.info("an info record");
    } finally {
      System.setErr(err);
    }
    String out = buffer.toString(StandardCharsets.UTF_8);
    // slf4j-simple's line (its format is the command's configuration), not the JDK's two lines
    assertThat(out).contains("WARN").contains("Driver - bridged warning");
    assertThat(out).doesNotContain("WARNING:");
    assertThat(out).doesNotContain("an info record");
  }

  @Test
  void verboseLetsInfoThrough() {
    JulBridge.install(true);
    assertThat(Logger.getLogger("io.grpc.netty").isLoggable(java.util.logging.Level.INFO)).isTrue();
    assertThat(Logger.getLogger("io.grpc.netty").isLoggable(java.util.logging.Level.FINE))
        .isFalse();
  }
}
