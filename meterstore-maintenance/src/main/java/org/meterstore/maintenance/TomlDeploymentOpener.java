package org.meterstore.maintenance;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import org.meterstore.query.QueryEngine;
import org.meterstore.query.jdbc.DeploymentOpener;

/**
 * Makes {@code jdbc:meterstore:config=<path>} work: the {@link DeploymentOpener} the driver finds
 * through {@link java.util.ServiceLoader}. It opens the file with {@link MeterStores#open(Path,
 * OpenTelemetry)} (no metrics) and hands the driver the deployment's query engine; the driver keeps
 * it, and so the deployment, for the life of the JVM. Public only because the service loader needs
 * it; applications call {@link MeterStores} instead.
 */
public final class TomlDeploymentOpener implements DeploymentOpener {
  /** The opener; the service loader calls this. */
  public TomlDeploymentOpener() {}

  @Override
  @SuppressWarnings("resource") // the driver keeps the deployment open for the JVM's life
  public QueryEngine open(Path config) {
    MeterCatalog catalog = MeterStores.open(config, OpenTelemetry.noop());
    try {
      return catalog.query();
    } catch (RuntimeException e) {
      catalog.close();
      throw e;
    }
  }
}
