package org.meterstore.cold.outage;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;
import java.sql.SQLException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.RuntimeIOException;
import org.apache.iceberg.exceptions.ServiceFailureException;
import org.apache.iceberg.exceptions.ServiceUnavailableException;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkServiceException;

/**
 * Which failures that Iceberg, its FileIOs and its catalogs throw mean that the cold tier's storage
 * did not answer: an I/O error, the AWS SDK's client-side failure (connection refused, timed out),
 * a server error or throttling of the object store, a REST catalog's 5xx, a JDBC catalog's database
 * that cannot be reached or is shutting down (SQLState class {@code 08}, {@code 57P01}–{@code
 * 57P03}; a failover's "no primary" among them). The one place that knows those types, so that a
 * caller far from the cold tier (a planner rule, the JDBC error translation) reports them as the
 * retryable {@code STORAGE} error rather than as whatever wrapped them.
 */
public final class StorageFailures {
  private StorageFailures() {}

  /**
   * The deepest storage failure in {@code t}'s cause chain (the one that says what the store did,
   * under the wrappers), or null. A missing file is an answer, not silence: a chain that says so
   * (Iceberg's {@code NotFoundException}, a file-not-found I/O error) is none.
   */
  public static Throwable find(Throwable t) {
    Throwable found = null;
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof NotFoundException
          || c instanceof FileNotFoundException
          || c instanceof NoSuchFileException) {
        return null;
      }
      if (isStorage(c)) {
        found = c;
      }
      if (c.getCause() == c) {
        break;
      }
    }
    return found;
  }

  /**
   * {@code t} as a retryable {@code STORAGE} error "Cannot {@code action}: …" when its chain holds
   * a storage failure (or {@code t} itself when it is a {@link MeterStoreException}), else null.
   */
  public static MeterStoreException classify(String action, Throwable t) {
    if (t instanceof MeterStoreException m) {
      return m;
    }
    Throwable storage = find(t);
    if (storage == null) {
      return null;
    }
    return new MeterStoreException(
        ErrorKind.STORAGE,
        "Cannot " + action + ": the cold tier does not answer (" + storage + ")",
        t);
  }

  private static boolean isStorage(Throwable c) {
    if (c instanceof SdkServiceException s) {
      return s.statusCode() >= 500 || s.isThrottlingException();
    }
    if (c instanceof SQLException s && s.getSQLState() != null) {
      String state = s.getSQLState();
      return state.startsWith("08") || state.matches("57P0[123]");
    }
    return c instanceof SdkClientException
        || c instanceof IOException
        || c instanceof UncheckedIOException
        || c instanceof RuntimeIOException
        || c instanceof ServiceUnavailableException
        || c instanceof ServiceFailureException;
  }
}
