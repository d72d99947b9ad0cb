package org.meterstore.cold.internal.write;

import java.io.IOException;
import java.net.URL;
import org.apache.hadoop.conf.Configuration;

/**
 * Runs a Parquet writer's construction without Hadoop's default configuration files.
 *
 * <p>Iceberg's Parquet write builder makes a {@code new Configuration()} for every file it writes
 * to a non-Hadoop {@code OutputFile} (the local and S3 warehouses both write through one), and a
 * Hadoop configuration parses {@code core-default.xml} and looks for {@code core-site.xml} on the
 * class path anew for each instance (and any other {@code *-default.xml} or {@code *-site.xml} that
 * Hadoop classes loaded since have registered as defaults: hiding the two core files alone still
 * left a tenth of the CPU in parsing): milliseconds per data file, a sixth of the profiled CPU of
 * the reliability suite's generated histories, whose commits are small. Nothing in those files
 * reaches such a file: Parquet's properties come from the table, and the bytes go through Iceberg's
 * {@code FileIO}, not a Hadoop file system. A configuration takes its class loader from the
 * thread's context class loader when it is made; for the duration of {@code build}, that loader is
 * one that answers every request as the caller's does except those resources, so the configuration
 * starts empty. The caller's loader is restored before returning, and every class still loads
 * through it.
 */
final class WithoutHadoopSiteFiles extends ClassLoader {
  private WithoutHadoopSiteFiles(ClassLoader parent) {
    super(parent);
  }

  /** Calls {@code build} with the thread's context class loader hiding Hadoop's default files. */
  static <T> T build(Build<T> build) throws IOException {
    Thread thread = Thread.currentThread();
    ClassLoader caller = thread.getContextClassLoader();
    ClassLoader parent = caller != null ? caller : Configuration.class.getClassLoader();
    thread.setContextClassLoader(new WithoutHadoopSiteFiles(parent));
    try {
      return build.call();
    } finally {
      thread.setContextClassLoader(caller);
    }
  }

  /** Constructs a writer. */
  @FunctionalInterface
  interface Build<T> {
    T call() throws IOException;
  }

  @Override
  public URL getResource(String name) {
    return isDefaultResource(name) ? null : super.getResource(name);
  }

  /**
   * A Hadoop default resource: a file at the root of the class path named {@code *-default.xml} or
   * {@code *-site.xml} ({@code core-default.xml}, {@code core-site.xml} and those other Hadoop
   * classes register).
   */
  private static boolean isDefaultResource(String name) {
    return name.indexOf('/') < 0 && (name.endsWith("-default.xml") || name.endsWith("-site.xml"));
  }
}
