package org.meterstore.internal.embedded;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the embedded server listens: 127.0.0.1 on a port chosen once per data directory and kept in
 * {@code <data_dir>/pg-port} (so the URL that {@code status} prints stays right across restarts;
 * when another program has taken the port meanwhile, a free one is chosen and kept instead), and a
 * Unix socket in the cluster directory, which only the owner may enter. A socket path is limited to
 * 107 bytes; where the cluster directory's would be longer, or holds characters that the server's
 * command line cannot carry, the server gets no socket at all and only TCP is offered.
 *
 * @param port the TCP port on 127.0.0.1
 * @param socketDirectory the socket's directory, or empty when the server has none
 */
record ServerAddress(int port, Optional<Path> socketDirectory) {
  private static final Logger LOG = LoggerFactory.getLogger(ServerAddress.class);
  static final String PORT_FILE = "pg-port";
  static final int MAX_SOCKET_PATH = 107; // sizeof(sun_path) - 1 on Linux

  /** The address for {@code cluster} of {@code dataDir}; writes the port file when it changes. */
  static ServerAddress choose(Path dataDir, Path cluster) throws IOException {
    Path file = dataDir.resolve(PORT_FILE);
    Optional<Integer> kept = readPort(file);
    int port;
    if (kept.isPresent() && isFree(kept.get())) {
      port = kept.get();
    } else {
      port = freePort();
      kept.ifPresent(
          old -> LOG.warn("Port {} of the embedded PostgreSQL is taken; using {} now", old, port));
      Files.writeString(file, port + "\n", StandardCharsets.UTF_8);
    }
    Optional<Path> socket = socketDirectory(cluster, port);
    if (socket.isEmpty()) {
      LOG.info(
          "The embedded PostgreSQL in {} gets no Unix socket (path over {} bytes, or a quote,"
              + " comma or backslash in it): TCP on 127.0.0.1 only",
          cluster,
          MAX_SOCKET_PATH);
    }
    return new ServerAddress(port, socket);
  }

  /** {@code cluster} when a socket for {@code port} fits in it; pure. */
  static Optional<Path> socketDirectory(Path cluster, int port) {
    String dir = cluster.toAbsolutePath().toString();
    String socket = dir + "/.s.PGSQL." + port;
    boolean fits = socket.getBytes(StandardCharsets.UTF_8).length <= MAX_SOCKET_PATH;
    boolean plain =
        dir.chars().noneMatch(c -> c == '\'' || c == '"' || c == ',' || c == '\\' || c < 32);
    return fits && plain ? Optional.of(cluster.toAbsolutePath()) : Optional.empty();
  }

  /**
   * The value of {@code unix_socket_directories} as it goes into the server's command line, which
   * {@code pg_ctl} hands to {@code /bin/sh}: single-quoted, and {@code ''} (no socket) when there
   * is none.
   */
  String socketSetting() {
    return "'" + socketDirectory.map(Path::toString).orElse("") + "'";
  }

  private static Optional<Integer> readPort(Path file) throws IOException {
    try {
      int port = Integer.parseInt(Files.readString(file, StandardCharsets.UTF_8).strip());
      return port > 0 && port < 65536 ? Optional.of(port) : Optional.empty();
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (NumberFormatException e) {
      LOG.warn("Ignoring {}: not a port number", file);
      return Optional.empty();
    }
  }

  private static boolean isFree(int port) {
    try {
      new ServerSocket(port, 1, InetAddress.getLoopbackAddress()).close();
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }
}
