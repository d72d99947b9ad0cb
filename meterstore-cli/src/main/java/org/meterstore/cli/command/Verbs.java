package org.meterstore.cli.command;

import picocli.CommandLine;

/** Registers every verb of the {@code meterstore} command, in the order the usage lists them. */
public final class Verbs {
  private Verbs() {}

  /** Adds the verbs to the root command line. */
  public static void addTo(CommandLine root) {
    root.addSubcommand(new InitCommand());
  }
}
