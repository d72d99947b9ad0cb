package org.meterstore.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/**
 * The main classes of every module on this module's classpath, imported once per test JVM and
 * shared by the rule classes (the import is the slow part of an architecture test).
 */
final class MainClasses {
  private static JavaClasses classes;

  private MainClasses() {}

  /** The classes of {@code org.meterstore}, tests excluded. */
  static synchronized JavaClasses get() {
    if (classes == null) {
      classes =
          new ClassFileImporter()
              .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
              .importPackages("org.meterstore");
    }
    return classes;
  }
}
