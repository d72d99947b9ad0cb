package org.meterstore.config;

import org.meterstore.cold.config.CatalogKind;
import org.meterstore.cold.config.ColdConfig;
import org.meterstore.cold.config.ColdTimeouts;

/**
 * The {@code [cold]} section: the Iceberg catalog and warehouse. Immutable; {@link #toString()}
 * shows no password.
 *
 * @param catalog {@link CatalogKind#JDBC} (default) or {@link CatalogKind#REST}
 * @param uri the JDBC catalog's database URL, or null for the hot tier's database (the default);
 *     the REST catalog's base URL (required for REST)
 * @param user the JDBC catalog's user, or null for the hot tier's
 * @param password the JDBC catalog's password, or null for the hot tier's
 * @param warehouse the warehouse root ({@code file:///…} or {@code s3://bucket/prefix}), or null
 *     for {@code data_dir/warehouse} on the local filesystem
 * @param namespace the Iceberg namespace (default {@code meterstore})
 * @param targetFileSizeBytes the Parquet file size writers aim at, in bytes (default 128 MiB, at
 *     least 1 MiB)
 * @param timeouts {@code connect_timeout}, {@code request_timeout}, {@code retry_attempts} and
 *     {@code call_timeout}: how long the object store and the REST catalog may take before they
 *     count as unreachable ({@link ColdTimeouts#DEFAULTS} when null)
 * @param s3 object storage settings, or null for the local filesystem
 * @param footerCacheBytes {@code footer_cache}: the bound of the cache of parsed Parquet footers
 *     and page indexes, as {@link ColdConfig#footerCacheBytes()} takes it (0 the default, -1 none)
 * @param plannedFilesCacheBytes {@code planned_files_cache}: the bound of the cache of planned
 *     snapshots' files, as {@link ColdConfig#plannedFilesCacheBytes()} takes it
 */
public record ColdSection(
    CatalogKind catalog,
    String uri,
    String user,
    Secret password,
    String warehouse,
    String namespace,
    long targetFileSizeBytes,
    ColdTimeouts timeouts,
    S3Section s3,
    long footerCacheBytes,
    long plannedFilesCacheBytes) {

  /** The JDBC catalog on the hot database with a warehouse under the data directory. */
  public static final ColdSection DEFAULTS =
      new ColdSection(
          CatalogKind.JDBC,
          null,
          null,
          null,
          null,
          ColdConfig.DEFAULT_NAMESPACE,
          ColdConfig.DEFAULT_TARGET_FILE_SIZE,
          ColdTimeouts.DEFAULTS,
          null,
          0,
          0);

  /** Validates the catalog kind, namespace and file size ({@code CONFIG}). */
  public ColdSection {
    catalog = catalog == null ? CatalogKind.JDBC : catalog;
    if (catalog == CatalogKind.CUSTOM) {
      throw ConfigErrors.config(
          "Invalid cold.catalog: 'custom' (jdbc or rest; pass a Catalog instance from Java)");
    }
    if (catalog == CatalogKind.REST && (uri == null || uri.isBlank())) {
      throw ConfigErrors.config("Invalid cold.uri: null (required for the rest catalog)");
    }
    if (catalog == CatalogKind.REST && !isHttpUri(uri)) {
      // not a URI at all: nothing of it is shown, it may be a secret pasted into the wrong key
      throw ConfigErrors.config(
          "Invalid cold.uri: (value not shown) (the http:// or https:// URI of the REST catalog)");
    }
    if (Redaction.hasUserInfo(uri)) {
      throw ConfigErrors.config(
          "Invalid cold.uri: '"
              + Redaction.url(uri)
              + "' (no user info in the URI: set cold.user and cold.password for the jdbc catalog)");
    }
    namespace = namespace == null ? ColdConfig.DEFAULT_NAMESPACE : namespace;
    timeouts = timeouts == null ? ColdTimeouts.DEFAULTS : timeouts;
    targetFileSizeBytes =
        targetFileSizeBytes == 0 ? ColdConfig.DEFAULT_TARGET_FILE_SIZE : targetFileSizeBytes;
    String ns = namespace;
    long size = targetFileSizeBytes;
    long footers = footerCacheBytes;
    long planned = plannedFilesCacheBytes;
    ConfigErrors.asConfig(
        "cold",
        () ->
            ColdConfig.rest("http://check", null)
                .withNamespace(ns)
                .withTargetFileSizeBytes(size)
                .withFooterCacheBytes(footers)
                .withPlannedFilesCacheBytes(planned));
  }

  /**
   * The cold module's configuration.
   *
   * @param hotUrl the hot database's URL, used when {@link #uri} is null
   * @param hotUser the hot database's user, used when {@link #user} is null
   * @param hotPassword the hot database's password, used when {@link #password} is null
   * @param defaultWarehouse the warehouse used when {@link #warehouse} is null
   */
  public ColdConfig toColdConfig(
      String hotUrl, String hotUser, Secret hotPassword, String defaultWarehouse) {
    String where = warehouse == null ? defaultWarehouse : warehouse;
    return ConfigErrors.asConfig(
        "cold",
        () -> {
          ColdConfig base =
              catalog == CatalogKind.REST
                  ? ColdConfig.rest(uri, where)
                  : ColdConfig.jdbc(
                      uri == null ? hotUrl : uri,
                      uri == null && user == null ? hotUser : user,
                      Secret.revealOrNull(uri == null && password == null ? hotPassword : password),
                      where);
          ColdConfig c =
              base.withNamespace(namespace)
                  .withTargetFileSizeBytes(targetFileSizeBytes)
                  .withTimeouts(timeouts)
                  .withFooterCacheBytes(footerCacheBytes)
                  .withPlannedFilesCacheBytes(plannedFilesCacheBytes);
          return s3 == null ? c : c.withS3(s3.settings());
        });
  }

  @Override
  public String toString() {
    return "ColdSection[catalog="
        + catalog
        + ", uri="
        + (uri == null ? "(hot database)" : Redaction.url(uri))
        + ", user="
        + user
        + ", password="
        + password
        + ", warehouse="
        + (warehouse == null ? "(data_dir/warehouse)" : warehouse)
        + ", namespace="
        + namespace
        + ", targetFileSizeBytes="
        + targetFileSizeBytes
        + ", timeouts="
        + timeouts
        + ", s3="
        + s3
        + ", footerCacheBytes="
        + footerCacheBytes
        + ", plannedFilesCacheBytes="
        + plannedFilesCacheBytes
        + "]";
  }

  private static boolean isHttpUri(String uri) {
    try {
      java.net.URI parsed = new java.net.URI(uri);
      return ("http".equalsIgnoreCase(parsed.getScheme())
              || "https".equalsIgnoreCase(parsed.getScheme()))
          && parsed.getHost() != null;
    } catch (java.net.URISyntaxException e) {
      return false;
    }
  }
}
