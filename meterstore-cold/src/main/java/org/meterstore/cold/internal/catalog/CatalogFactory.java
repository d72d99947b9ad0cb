package org.meterstore.cold.internal.catalog;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.io.FileIO;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.config.CatalogKind;
import org.meterstore.cold.config.ColdConfig;
import org.meterstore.cold.config.ColdTimeouts;
import org.meterstore.cold.config.S3Settings;

/**
 * Builds the Iceberg catalog a {@link ColdConfig} describes. The JDBC catalog uses schema version
 * V1 (views supported) and MeterStore's {@link LocalFileIO} for a warehouse on the local file
 * system (Iceberg's only persistent local one goes through Hadoop's file system, which starts a
 * process per file written); S3 settings switch any catalog to {@code S3FileIO}.
 *
 * <p>The JDBC catalog's connections reconnect after a PostgreSQL restart: Iceberg's client pool
 * reconnects and retries once on the connection-failure SQLStates it knows ({@code 08…}, {@code
 * 40001}), and MeterStore adds the shutdown states ({@code 57P01} admin shutdown, {@code 57P02}
 * crash shutdown, {@code 57P03} cannot connect now) that a pooled connection reports first when its
 * server was restarted; without them the first catalog call after a restart fails.
 *
 * <p>The {@link ColdTimeouts} reach the AWS SDK's HTTP clients through {@code S3FileIO}'s
 * properties (connection and idle timeouts of both clients Iceberg can build, attempts and pauses
 * of the SDK's retry policy) and the REST catalog's HTTP client. Without them {@code S3FileIO}
 * retries a refused connection for about two minutes (five retries, pauses growing to 20 s). The
 * whole-call bound has no Iceberg property: it reaches the SDK through {@link
 * BoundedS3ClientFactory}, Iceberg's {@code s3.client-factory-impl} extension point.
 */
public final class CatalogFactory {
  /** The catalog name MeterStore registers its catalogs under. */
  public static final String CATALOG_NAME = "meterstore";

  /** The JDBC catalog's extra SQLStates on which its client pool reconnects and retries once. */
  static final String RECONNECT_STATES = "57P01,57P02,57P03";

  private CatalogFactory() {}

  /**
   * A new catalog for {@code config} (not for {@link CatalogKind#CUSTOM}).
   *
   * @throws MeterStoreException {@code STORAGE} when the catalog cannot be reached or initialised
   */
  public static Catalog build(ColdConfig config) {
    Map<String, String> props = properties(config);
    try {
      return CatalogUtil.buildIcebergCatalog(
          CATALOG_NAME, props, new org.apache.hadoop.conf.Configuration());
    } catch (RuntimeException e) {
      throw new MeterStoreException(
          ErrorKind.STORAGE,
          "Cannot open the " + config.kind() + " cold catalog at " + config.uri() + ": " + e,
          e);
    }
  }

  /**
   * The store probe for {@code config}: a JDBC catalog whose warehouse is on object storage reads
   * metadata files from it on a table's first load, so the probe asks about the warehouse root
   * through an {@code S3FileIO} of its own before that load; a REST catalog's client reads no
   * metadata file, so it gets no probe; otherwise it checks only tables already loaded.
   */
  public static StoreProbe probe(ColdConfig config) {
    if (config.kind() == CatalogKind.REST) {
      return StoreProbe.none();
    }
    if (config.kind() != CatalogKind.JDBC || config.s3() == null || config.warehouse() == null) {
      return new StoreProbe();
    }
    Map<String, String> props = s3Properties(config.s3(), config.timeouts());
    FileIO io =
        CatalogUtil.loadFileIO(
            props.get(CatalogProperties.FILE_IO_IMPL),
            props,
            new org.apache.hadoop.conf.Configuration());
    String root = config.warehouse().endsWith("/") ? config.warehouse() : config.warehouse() + "/";
    return new StoreProbe(io, root);
  }

  /** The catalog properties for {@code config}; they contain secrets, so never log them. */
  public static Map<String, String> properties(ColdConfig config) {
    Map<String, String> p = new LinkedHashMap<>();
    if (config.kind() == CatalogKind.JDBC) {
      p.put(CatalogProperties.CATALOG_IMPL, "org.apache.iceberg.jdbc.JdbcCatalog");
      p.put("jdbc.schema-version", "V1");
      p.put("retryable_status_codes", RECONNECT_STATES);
      putIfSet(p, "jdbc.user", config.user());
      putIfSet(p, "jdbc.password", config.password());
    } else if (config.kind() == CatalogKind.REST) {
      p.put(CatalogProperties.CATALOG_IMPL, "org.apache.iceberg.rest.RESTCatalog");
    } else {
      throw new IllegalArgumentException("a CUSTOM catalog is built by the caller");
    }
    p.put(CatalogProperties.URI, config.uri());
    putIfSet(p, CatalogProperties.WAREHOUSE_LOCATION, config.warehouse());
    if (config.kind() == CatalogKind.REST) {
      p.putAll(restTimeouts(config.timeouts()));
    }
    if (config.s3() != null) {
      p.putAll(s3Properties(config.s3(), config.timeouts()));
    } else if (config.kind() == CatalogKind.JDBC && LocalFileIO.isLocal(config.warehouse())) {
      p.put(CatalogProperties.FILE_IO_IMPL, LocalFileIO.class.getName());
    }
    return p;
  }

  /** The REST catalog client's timeouts and retries for {@code t}. */
  static Map<String, String> restTimeouts(ColdTimeouts t) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("rest.client.connection-timeout-ms", millis(t.connectTimeout()));
    p.put("rest.client.socket-timeout-ms", millis(t.requestTimeout()));
    p.put("rest.client.max-retries", Integer.toString(t.retryAttempts() - 1));
    return p;
  }

  /** {@code S3FileIO} properties for {@code s3} with the default timeouts. */
  public static Map<String, String> s3Properties(S3Settings s3) {
    return s3Properties(s3, ColdTimeouts.DEFAULTS);
  }

  /** {@code S3FileIO} properties for {@code s3} with timeouts {@code t}. */
  public static Map<String, String> s3Properties(S3Settings s3, ColdTimeouts t) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put(CatalogProperties.FILE_IO_IMPL, "org.apache.iceberg.aws.s3.S3FileIO");
    if (s3.endpoint() != null) {
      p.put("s3.endpoint", s3.endpoint().toString());
    }
    p.put("s3.path-style-access", Boolean.toString(s3.pathStyleAccess()));
    p.put("client.region", s3.region());
    putIfSet(p, "s3.access-key-id", s3.accessKeyId());
    putIfSet(p, "s3.secret-access-key", s3.secretAccessKey());
    p.put("http-client.apache.connection-timeout-ms", millis(t.connectTimeout()));
    p.put("http-client.apache.socket-timeout-ms", millis(t.requestTimeout()));
    p.put("http-client.urlconnection.connection-timeout-ms", millis(t.connectTimeout()));
    p.put("http-client.urlconnection.socket-timeout-ms", millis(t.requestTimeout()));
    p.put("s3.retry.num-retries", Integer.toString(t.retryAttempts() - 1));
    p.put("s3.retry.min-wait-ms", millis(ColdTimeouts.MIN_RETRY_PAUSE));
    p.put("s3.retry.max-wait-ms", millis(ColdTimeouts.MAX_RETRY_PAUSE));
    p.put("s3.client-factory-impl", BoundedS3ClientFactory.class.getName());
    p.put(BoundedS3ClientFactory.CALL_TIMEOUT_MS, millis(t.callTimeout()));
    return p;
  }

  private static String millis(java.time.Duration d) {
    return Long.toString(d.toMillis());
  }

  private static void putIfSet(Map<String, String> p, String key, String value) {
    if (value != null && !value.isEmpty()) {
      p.put(key, value);
    }
  }
}
