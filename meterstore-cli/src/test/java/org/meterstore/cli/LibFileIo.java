package org.meterstore.cli;

import java.lang.reflect.InvocationTargetException;
import java.util.Map;

/**
 * Iceberg's {@code S3FileIO} as loaded by a class loader of its own (the distribution's {@code
 * lib/}), driven by reflection: nothing of it comes from the test's class path.
 */
final class LibFileIo {
  private LibFileIo() {}

  /**
   * Initialises an {@code S3FileIO} of {@code loader} with {@code props} and asks whether {@code
   * location} exists; returns what that threw (unwrapped), or null when it answered.
   */
  static Throwable exists(ClassLoader loader, Map<String, String> props, String location)
      throws ReflectiveOperationException {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(loader);
    Object io = null;
    Class<?> type = loader.loadClass("org.apache.iceberg.aws.s3.S3FileIO");
    try {
      io = type.getConstructor().newInstance();
      type.getMethod("initialize", Map.class).invoke(io, props);
      Object file = type.getMethod("newInputFile", String.class).invoke(io, location);
      file.getClass().getMethod("exists").invoke(file);
      return null;
    } catch (InvocationTargetException e) {
      return e.getCause();
    } finally {
      if (io != null) {
        type.getMethod("close").invoke(io);
      }
      thread.setContextClassLoader(previous);
    }
  }
}
