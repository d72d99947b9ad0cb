package org.meterstore.internal.embedded;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import org.meterstore.config.Secret;

/**
 * The one class that names the optional zonky API, loaded only after {@link
 * EmbeddedServer#available()} found it. The cluster is initialised when its directory holds none
 * and never cleaned: the data stays across runs.
 *
 * <p>Zonky runs {@code initdb -A trust -U postgres} followed by its "locale" options, each passed
 * as {@code --key=value}; two of those give a new cluster its superuser password and password
 * authentication from the start ({@code --auth} after {@code -A} wins), so no new cluster ever
 * trusts anyone. Zonky checks readiness by connecting with its connect options, which carry the
 * password. The binaries are unpacked into {@code binaries} ({@link BinaryDirectory}), not into the
 * shared temporary directory.
 *
 * <p>Zonky remembers, for the life of the JVM, where it unpacked the binaries of each resolver and
 * hands that folder out again whatever working directory the next start names. With its default
 * resolver, a process that had started zonky elsewhere before (a test fixture, another library)
 * would run MeterStore's server from that folder — the shared temporary directory. Each binaries
 * directory therefore gets its own resolver ({@link PlatformArchive}, equal for equal directories),
 * which also reads exactly this platform's archive.
 */
final class Zonky {
  private Zonky() {}

  record Started(AutoCloseable server, String jdbcUrl) {}

  static Started start(
      Path cluster,
      Path binaries,
      Platform platform,
      ServerAddress address,
      Secret password,
      Path passwordFile)
      throws IOException {
    EmbeddedPostgres pg =
        EmbeddedPostgres.builder()
            .setPgBinaryResolver(new PlatformArchive(binaries, platform))
            .setOverrideWorkingDirectory(binaries.toFile())
            .setDataDirectory(cluster)
            .setCleanDataDirectory(false)
            .setPort(address.port())
            .setLocaleConfig("pwfile", passwordFile.toAbsolutePath().toString())
            .setLocaleConfig("auth", "scram-sha-256")
            .setServerConfig("listen_addresses", "127.0.0.1")
            .setServerConfig("unix_socket_directories", address.socketSetting())
            .setConnectConfig("password", password.reveal())
            .start();
    String url = "jdbc:postgresql://127.0.0.1:" + pg.getPort() + "/postgres";
    return new Started(pg, url);
  }

  /**
   * The platform's archive from the classpath, keyed by the directory it is unpacked into: zonky's
   * cache of unpacked binaries never hands one directory's binaries to a start in another.
   */
  private record PlatformArchive(Path directory, Platform platform) implements PgBinaryResolver {
    @Override
    public InputStream getPgBinary(String system, String machineHardware) throws IOException {
      for (String name : platform.archives()) {
        InputStream archive = Zonky.class.getClassLoader().getResourceAsStream(name);
        if (archive != null) {
          return archive;
        }
      }
      throw new IOException(platform.archive() + " is not on the classpath");
    }
  }
}
