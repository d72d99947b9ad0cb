package org.meterstore.reliability;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.meterstore.cold.config.ColdConfig;
import org.meterstore.testing.InProcessRestCatalog;

/**
 * An Iceberg REST catalog outside the hot tier's PostgreSQL, as a Polaris or Lakekeeper keeps its
 * own store: an {@link InProcessRestCatalog} serving Iceberg's own in-memory catalog, whose
 * metadata files go to a local warehouse through Hadoop's FileIO. Nothing of it fails over with
 * PostgreSQL. A deployment reaches it by {@link #config()}.
 */
final class RestBackend implements AutoCloseable {
  private final InMemoryCatalog backend = new InMemoryCatalog();
  private final InProcessRestCatalog server;

  RestBackend(Path warehouse) throws IOException {
    backend.initialize(
        "rest_backend",
        Map.of(
            CatalogProperties.WAREHOUSE_LOCATION,
            warehouse.toUri().toString(),
            CatalogProperties.FILE_IO_IMPL,
            HadoopFileIO.class.getName()));
    server = new InProcessRestCatalog(backend);
  }

  /** The REST catalog as a deployment configures it. */
  ColdConfig config() {
    return ColdConfig.rest(server.uri(), null);
  }

  @Override
  public void close() throws IOException {
    server.close();
    backend.close();
  }
}
