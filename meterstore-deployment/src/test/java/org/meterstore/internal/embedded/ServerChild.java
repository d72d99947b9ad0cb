package org.meterstore.internal.embedded;

import java.nio.file.Path;

/**
 * A process that starts the embedded server of the data directory {@code args[0]}, prints {@code UP
 * <jdbc url>} and waits to be killed.
 */
public final class ServerChild {
  private ServerChild() {}

  public static void main(String[] args) throws InterruptedException {
    EmbeddedServer server = EmbeddedServer.start(Path.of(args[0]));
    System.out.println("UP " + server.jdbcUrl());
    System.out.flush();
    Thread.sleep(600_000);
  }
}
