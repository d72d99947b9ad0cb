package org.meterstore.cold.config;

import org.apache.iceberg.catalog.Catalog;
import org.meterstore.api.MeterStoreException;
import org.meterstore.cold.scan.FooterCache;

/**
 * Where the cold tier lives: the catalog, the warehouse and the storage settings. Immutable; parse
 * it once at the boundary. {@link #toString()} never shows a password or secret key.
 *
 * @param kind which catalog; {@link CatalogKind#JDBC} by default
 * @param uri the JDBC URL of the catalog database ({@code jdbc:postgresql://…}) or the REST
 *     catalog's base URL; null for {@link CatalogKind#CUSTOM}
 * @param user the JDBC catalog's database user, or null
 * @param password the JDBC catalog's database password, or null
 * @param warehouse the warehouse root: {@code file:///…} for a local directory (MeterStore's {@code
 *     LocalFileIO}), {@code s3://bucket/prefix} with {@code s3} settings; required for JDBC,
 *     optional for REST
 * @param namespace the Iceberg namespace of MeterStore's tables (default {@code meterstore})
 * @param s3 S3-compatible storage settings, or null for the local filesystem
 * @param targetFileSizeBytes the Parquet file size a writer aims at, in bytes (default 128 MiB); at
 *     least 1 MiB
 * @param chunkRows the rows a writer holds and sorts at most when its input is not grouped by MaLo,
 *     and about the rows of one data file (default 100 000), see {@link ColdTable#archive}
 * @param commitPolicy MeterStore's commit retry
 * @param timeouts how long the object store and the REST catalog may take before they count as
 *     unreachable ({@link ColdTimeouts#DEFAULTS} when null)
 * @param footerCacheBytes the bound of the store's cache of parsed Parquet footers and page
 *     indexes, in estimated heap bytes (default 64 MiB when 0); -1 keeps nothing (see {@link
 *     org.meterstore.cold.scan.FooterCache})
 * @param plannedFilesCacheBytes the bound of the store's cache of the data files each planned
 *     snapshot references, with their statistics, in estimated heap bytes (default 64 MiB when 0,
 *     about 50,000 files); -1 keeps nothing
 * @param customCatalog the caller's catalog for {@link CatalogKind#CUSTOM} (not closed by
 *     MeterStore), else null
 */
public record ColdConfig(
    CatalogKind kind,
    String uri,
    String user,
    String password,
    String warehouse,
    String namespace,
    S3Settings s3,
    long targetFileSizeBytes,
    int chunkRows,
    CommitPolicy commitPolicy,
    ColdTimeouts timeouts,
    long footerCacheBytes,
    long plannedFilesCacheBytes,
    Catalog customCatalog) {

  /** The default namespace. */
  public static final String DEFAULT_NAMESPACE = "meterstore";

  /** The default target file size: 128 MiB. */
  public static final long DEFAULT_TARGET_FILE_SIZE = 128L * 1024 * 1024;

  /**
   * The default bound of the planned snapshots' files: 64 MiB, about 50,000 files with statistics
   * on 20 columns.
   */
  public static final long DEFAULT_PLANNED_FILES_CACHE_BYTES = 64L * 1024 * 1024;

  /** The default sort chunk: 100 000 rows. */
  public static final int DEFAULT_CHUNK_ROWS = 100_000;

  /** Applies defaults and checks that the settings fit the catalog kind. */
  public ColdConfig {
    kind = kind == null ? CatalogKind.JDBC : kind;
    namespace = namespace == null ? DEFAULT_NAMESPACE : namespace;
    if (!namespace.matches("[a-z][a-z0-9_]*")) {
      throw MeterStoreException.invalid("cold namespace", namespace, "a lowercase identifier");
    }
    targetFileSizeBytes = targetFileSizeBytes == 0 ? DEFAULT_TARGET_FILE_SIZE : targetFileSizeBytes;
    if (targetFileSizeBytes < 1024 * 1024) {
      throw MeterStoreException.invalid(
          "cold target file size", targetFileSizeBytes, "at least 1048576 bytes (1 MiB)");
    }
    chunkRows = chunkRows == 0 ? DEFAULT_CHUNK_ROWS : chunkRows;
    if (chunkRows < 1) {
      throw MeterStoreException.invalid("cold chunk rows", chunkRows, "at least 1");
    }
    commitPolicy = commitPolicy == null ? CommitPolicy.DEFAULTS : commitPolicy;
    timeouts = timeouts == null ? ColdTimeouts.DEFAULTS : timeouts;
    footerCacheBytes = footerCacheBytes == 0 ? FooterCache.DEFAULT_MAX_BYTES : footerCacheBytes;
    if (footerCacheBytes < -1) {
      throw MeterStoreException.invalid(
          "cold footer cache bytes",
          footerCacheBytes,
          "at least 1, 0 for the default, -1 for none");
    }
    plannedFilesCacheBytes =
        plannedFilesCacheBytes == 0 ? DEFAULT_PLANNED_FILES_CACHE_BYTES : plannedFilesCacheBytes;
    if (plannedFilesCacheBytes < -1) {
      throw MeterStoreException.invalid(
          "cold planned files cache bytes",
          plannedFilesCacheBytes,
          "at least 1, 0 for the default, -1 for none");
    }
    requireFitsKind(kind, uri, warehouse, customCatalog);
  }

  private static void requireFitsKind(
      CatalogKind kind, String uri, String warehouse, Catalog customCatalog) {
    if (kind == CatalogKind.CUSTOM) {
      if (customCatalog == null) {
        throw MeterStoreException.invalid("cold catalog", null, "CUSTOM needs a Catalog instance");
      }
      return;
    }
    if (customCatalog != null) {
      throw MeterStoreException.invalid("cold catalog", kind, "a Catalog instance needs CUSTOM");
    }
    if (uri == null || uri.isBlank()) {
      throw MeterStoreException.invalid("cold uri", uri, "required for the " + kind + " catalog");
    }
    if (kind == CatalogKind.JDBC && (warehouse == null || warehouse.isBlank())) {
      throw MeterStoreException.invalid("cold warehouse", warehouse, "required for JDBC");
    }
  }

  /** A JDBC catalog at {@code jdbcUrl} with a warehouse on the local filesystem or S3. */
  public static ColdConfig jdbc(String jdbcUrl, String user, String password, String warehouse) {
    return new ColdConfig(
        CatalogKind.JDBC,
        jdbcUrl,
        user,
        password,
        warehouse,
        null,
        null,
        0,
        0,
        null,
        null,
        0,
        0,
        null);
  }

  /** A REST catalog at {@code baseUrl}; {@code warehouse} may be null. */
  public static ColdConfig rest(String baseUrl, String warehouse) {
    return new ColdConfig(
        CatalogKind.REST, baseUrl, null, null, warehouse, null, null, 0, 0, null, null, 0, 0, null);
  }

  /** The caller's catalog; MeterStore uses it but does not close it. */
  public static ColdConfig custom(Catalog catalog) {
    return new ColdConfig(
        CatalogKind.CUSTOM, null, null, null, null, null, null, 0, 0, null, null, 0, 0, catalog);
  }

  /** This config with another Iceberg namespace. */
  public ColdConfig withNamespace(String ns) {
    return new ColdConfig(
        kind,
        uri,
        user,
        password,
        warehouse,
        ns,
        s3,
        targetFileSizeBytes,
        chunkRows,
        commitPolicy,
        timeouts,
        footerCacheBytes,
        plannedFilesCacheBytes,
        customCatalog);
  }

  /** This config storing files through {@code S3FileIO} with {@code settings}. */
  public ColdConfig withS3(S3Settings settings) {
    return new ColdConfig(
        kind,
        uri,
        user,
        password,
        warehouse,
        namespace,
        settings,
        targetFileSizeBytes,
        chunkRows,
        commitPolicy,
        timeouts,
        footerCacheBytes,
        plannedFilesCacheBytes,
        customCatalog);
  }

  /** This config with another target Parquet file size, in bytes. */
  public ColdConfig withTargetFileSizeBytes(long bytes) {
    return new ColdConfig(
        kind,
        uri,
        user,
        password,
        warehouse,
        namespace,
        s3,
        bytes,
        chunkRows,
        commitPolicy,
        timeouts,
        footerCacheBytes,
        plannedFilesCacheBytes,
        customCatalog);
  }

  /** This config sorting {@code rows} rows in memory at once. */
  public ColdConfig withChunkRows(int rows) {
    return new ColdConfig(
        kind,
        uri,
        user,
        password,
        warehouse,
        namespace,
        s3,
        targetFileSizeBytes,
        rows,
        commitPolicy,
        timeouts,
        footerCacheBytes,
        plannedFilesCacheBytes,
        customCatalog);
  }

  /** This config with another commit retry policy. */
  public ColdConfig withCommitPolicy(CommitPolicy policy) {
    return new ColdConfig(
        kind,
        uri,
        user,
        password,
        warehouse,
        namespace,
        s3,
        targetFileSizeBytes,
        chunkRows,
        policy,
        timeouts,
        footerCacheBytes,
        plannedFilesCacheBytes,
        customCatalog);
  }

  /** This config with other object store and REST catalog timeouts. */
  public ColdConfig withTimeouts(ColdTimeouts newTimeouts) {
    return new ColdConfig(
        kind,
        uri,
        user,
        password,
        warehouse,
        namespace,
        s3,
        targetFileSizeBytes,
        chunkRows,
        commitPolicy,
        newTimeouts,
        footerCacheBytes,
        plannedFilesCacheBytes,
        customCatalog);
  }

  /**
   * This config with another bound for the cache of parsed Parquet footers, in estimated heap
   * bytes: 0 for the default (64 MiB), -1 to keep no footer.
   */
  public ColdConfig withFooterCacheBytes(long bytes) {
    return new ColdConfig(
        kind,
        uri,
        user,
        password,
        warehouse,
        namespace,
        s3,
        targetFileSizeBytes,
        chunkRows,
        commitPolicy,
        timeouts,
        bytes,
        plannedFilesCacheBytes,
        customCatalog);
  }

  /**
   * This config with another bound for the cache of planned snapshots' data files, in estimated
   * heap bytes: 0 for the default (64 MiB), -1 to keep none (every execution reads the snapshot's
   * manifests).
   */
  public ColdConfig withPlannedFilesCacheBytes(long bytes) {
    return new ColdConfig(
        kind,
        uri,
        user,
        password,
        warehouse,
        namespace,
        s3,
        targetFileSizeBytes,
        chunkRows,
        commitPolicy,
        timeouts,
        footerCacheBytes,
        bytes,
        customCatalog);
  }

  /** {@code uri} without a query string or user info, either of which may carry a password. */
  private static String shownUri(String uri) {
    if (uri == null) {
      return null;
    }
    String shown = uri.replaceFirst("\\?.*$", "?****");
    return shown.replaceFirst("//[^/@]*@", "//****@");
  }

  @Override
  public String toString() {
    return "ColdConfig[kind="
        + kind
        + ", uri="
        + shownUri(uri)
        + ", user="
        + user
        + ", password="
        + (password == null ? "null" : "****")
        + ", warehouse="
        + warehouse
        + ", namespace="
        + namespace
        + ", s3="
        + s3
        + ", targetFileSizeBytes="
        + targetFileSizeBytes
        + ", chunkRows="
        + chunkRows
        + ", commitPolicy="
        + commitPolicy
        + ", timeouts="
        + timeouts
        + ", footerCacheBytes="
        + footerCacheBytes
        + ", plannedFilesCacheBytes="
        + plannedFilesCacheBytes
        + ", customCatalog="
        + (customCatalog == null ? "null" : customCatalog.name())
        + "]";
  }
}
