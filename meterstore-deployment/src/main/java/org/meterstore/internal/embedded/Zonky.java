package org.meterstore.internal.embedded;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The one class that names the optional zonky API, loaded only after {@link
 * EmbeddedServer#available()} found it. The cluster is initialised when its directory holds none
 * and never cleaned: the data stays across runs.
 */
final class Zonky {
  private Zonky() {}

  record Started(AutoCloseable server, int port, String jdbcUrl) {}

  static Started start(Path pgDir) throws IOException {
    EmbeddedPostgres pg =
        EmbeddedPostgres.builder()
            .setDataDirectory(pgDir)
            .setCleanDataDirectory(false)
            .setServerConfig("listen_addresses", "127.0.0.1")
            .start();
    String url = "jdbc:postgresql://127.0.0.1:" + pg.getPort() + "/postgres";
    return new Started(pg, pg.getPort(), url);
  }
}
