package org.meterstore.internal.embedded;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What a cluster's {@code postmaster.pid} says of the server that wrote it: its process id, the
 * data directory it serves and when it started (PostgreSQL writes them on lines 1 to 3). A server
 * removes the file when it stops; one that was killed, or whose machine went down, leaves it.
 *
 * @param pid the postmaster's process id
 * @param dataDirectory the cluster directory, as the server saw it
 * @param started the postmaster's start, to the second (UTC)
 */
record PidFile(long pid, Path dataDirectory, Instant started) {
  static final String NAME = "postmaster.pid";

  /** The file in {@code cluster}, or empty when there is none (no server, or one that stopped). */
  static Optional<PidFile> read(Path cluster) throws IOException {
    List<String> lines;
    try {
      lines = Files.readAllLines(cluster.resolve(NAME), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    return Optional.of(parse(lines));
  }

  /**
   * Lines 1 to 3 of a {@code postmaster.pid}.
   *
   * @throws IOException when they are missing or not a pid, a path and epoch seconds (a file
   *     half-written by a server that died at its start)
   */
  static PidFile parse(List<String> lines) throws IOException {
    if (lines.size() < 3) {
      throw new IOException("postmaster.pid has " + lines.size() + " lines, expected at least 3");
    }
    try {
      return new PidFile(
          Long.parseLong(lines.get(0).trim()),
          Path.of(lines.get(1).trim()),
          Instant.ofEpochSecond(Long.parseLong(lines.get(2).trim())));
    } catch (RuntimeException e) {
      throw new IOException("postmaster.pid is not a pid, a directory and a start time: " + e, e);
    }
  }
}
