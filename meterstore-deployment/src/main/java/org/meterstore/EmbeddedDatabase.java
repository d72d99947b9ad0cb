package org.meterstore;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How another process reaches the embedded default's PostgreSQL while a catalog has it open: the
 * URL (127.0.0.1, at a port kept per data directory, without credentials), the superuser and the
 * file that holds its password (readable by its owner only). Only one MeterStore process opens a
 * data directory; others connect with this URL as their {@code [hot] url}. See {@link
 * MeterCatalog#embeddedDatabase()}.
 *
 * @param jdbcUrl the {@code jdbc:postgresql:} URL of the {@code postgres} database; holds no
 *     password
 * @param user the superuser
 * @param passwordFile the file whose first line is the password; never print its content
 */
public record EmbeddedDatabase(String jdbcUrl, String user, Path passwordFile) {
  /** Checks that no part is null. */
  public EmbeddedDatabase {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(user, "user");
    Objects.requireNonNull(passwordFile, "passwordFile");
  }
}
