package org.meterstore.cli.command;

import picocli.CommandLine.IVersionProvider;

/** The version line of {@code meterstore --version}: the jar's implementation version. */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String version = VersionProvider.class.getPackage().getImplementationVersion();
    return new String[] {"meterstore " + (version == null ? "(development build)" : version)};
  }
}
