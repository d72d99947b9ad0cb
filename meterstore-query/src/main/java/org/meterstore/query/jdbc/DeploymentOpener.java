package org.meterstore.query.jdbc;

import java.nio.file.Path;
import org.meterstore.query.QueryEngine;

/**
 * Service interface: opens the deployment a MeterStore configuration file describes and returns its
 * query engine. Implementations are found with {@link java.util.ServiceLoader} (list the class in
 * {@code META-INF/services/org.meterstore.query.jdbc.DeploymentOpener}); {@code
 * meterstore-maintenance}, which parses {@code meterstore.toml}, provides one. The driver opens
 * each configuration once per class loader and keeps the engine, and so the deployment, for the
 * life of the JVM.
 */
public interface DeploymentOpener {
  /**
   * Opens the deployment {@code config} describes: its stores, its clock, its query engine.
   *
   * @param config the configuration file, as named in the URL (absolute or relative to the working
   *     directory)
   * @throws org.meterstore.api.MeterStoreException {@code CONFIG} for an invalid file, {@code
   *     STORAGE} when a tier cannot be reached
   */
  QueryEngine open(Path config);
}
