package org.meterstore.cli.command;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Files;
import java.nio.file.Path;
import org.meterstore.MeterCatalog;
import org.meterstore.MeterStores;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.table.TableDefinition;
import org.meterstore.config.MeterStoreConfig;

/** Opens the deployment a verb works on, from the file named by {@code --config}. */
final class Deployments {
  private Deployments() {}

  /**
   * Parses {@code file}.
   *
   * @throws MeterStoreException {@code CONFIG} when the file is missing or invalid
   */
  static MeterStoreConfig load(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new MeterStoreException(
          ErrorKind.CONFIG,
          "Cannot read the configuration "
              + file
              + ": no such file (write one with 'meterstore init', or pass --config <file>)");
    }
    return MeterStoreConfig.load(file);
  }

  /** Opens the deployment {@code file} describes; the caller closes it. */
  static MeterCatalog open(Path file) {
    return MeterStores.open(load(file), OpenTelemetry.noop());
  }

  /** The declared table {@code name}, or {@code INVALID_INPUT} naming the declared ones. */
  static TableDefinition table(MeterCatalog catalog, String name) {
    return catalog.table(name).definition();
  }
}
