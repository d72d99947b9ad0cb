package org.meterstore.internal.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * The cluster's {@code pg_hba.conf}, which MeterStore owns: password (SCRAM-SHA-256) authentication
 * for every local and loopback connection, nothing else. A file without the first line written here
 * is one MeterStore did not write — a cluster initialised before passwords, with trust for everyone
 * — and is replaced once the password is set. The file is written to a temporary name and moved
 * into place.
 */
final class HbaFile {
  static final String NAME = "pg_hba.conf";
  static final String MARKER =
      "# Written by MeterStore: password authentication only (see docs/configuration.md).";
  static final List<String> RULES =
      List.of(
          "local   all   all                  scram-sha-256",
          "host    all   all   127.0.0.1/32   scram-sha-256",
          "host    all   all   ::1/128        scram-sha-256");

  private HbaFile() {}

  /** Whether {@code cluster}'s file is the one written here. */
  static boolean isManaged(Path cluster) throws IOException {
    try {
      List<String> lines = Files.readAllLines(cluster.resolve(NAME), StandardCharsets.UTF_8);
      return !lines.isEmpty() && lines.get(0).equals(MARKER);
    } catch (NoSuchFileException e) {
      return false;
    }
  }

  /** Replaces {@code cluster}'s file with the rules above; the server reads it on a reload. */
  static void write(Path cluster) throws IOException {
    Path tmp = cluster.resolve(NAME + ".tmp");
    StringBuilder text = new StringBuilder(MARKER).append('\n');
    RULES.forEach(r -> text.append(r).append('\n'));
    Files.deleteIfExists(tmp);
    Files.createFile(tmp, PasswordFile.ownerOnly());
    Files.writeString(tmp, text, StandardCharsets.UTF_8);
    Files.move(tmp, cluster.resolve(NAME), StandardCopyOption.ATOMIC_MOVE);
  }
}
