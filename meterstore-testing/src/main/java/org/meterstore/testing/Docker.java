package org.meterstore.testing;

import org.testcontainers.DockerClientFactory;

/**
 * Whether a Docker engine answers, asked once per JVM through Testcontainers. The one home of the
 * probe that decides between containers and in-process servers ({@link PostgresServer}, {@link
 * ObjectStoreServer}); where Testcontainers itself cannot load, the answer is no.
 */
final class Docker {
  private static volatile Boolean available;

  private Docker() {}

  static boolean available() {
    Boolean known = available;
    if (known == null) {
      known = probe();
      available = known;
    }
    return known;
  }

  private static boolean probe() {
    try {
      return DockerClientFactory.instance().isDockerAvailable();
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }
}
