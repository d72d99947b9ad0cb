package org.meterstore;

import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import org.meterstore.api.MeterStoreException;

/**
 * A second process for {@link EmbeddedDefaultIT}: opens the configuration named by its argument and
 * prints {@code OPENED} or {@code REFUSED <kind> <retryable> <message>} on one line.
 */
public final class OpenChild {
  private OpenChild() {}

  public static void main(String[] args) {
    try (MeterCatalog c = MeterStores.open(Path.of(args[0]), OpenTelemetry.noop())) {
      System.out.println("OPENED " + c.tables().size());
    } catch (MeterStoreException e) {
      System.out.println("REFUSED " + e.kind() + " " + e.isRetryable() + " " + e.getMessage());
    }
  }
}
