package org.meterstore.cli.command;

import picocli.CommandLine;

/** Registers every verb of the {@code meterstore} command, in the order the usage lists them. */
public final class Verbs {
  private Verbs() {}

  /** Adds the verbs to the root command line. */
  public static void addTo(CommandLine root) {
    root.addSubcommand(new DemoCommand());
    root.addSubcommand(new InitCommand());
    root.addSubcommand(new CheckCommand());
    root.addSubcommand(new CreateCommand());
    root.addSubcommand(new StatusCommand());
    root.addSubcommand(new ArchiveCommand());
    root.addSubcommand(new MaintainCommand());
    root.addSubcommand(new ReassertWatermarkCommand());
    root.addSubcommand(new ImportCommand());
    root.addSubcommand(new QueryCommand());
    root.addSubcommand(new ServeCommand());
    root.addSubcommand(new ExplainCommand());
    root.addSubcommand(new CompletenessCommand());
    root.addSubcommand(new SnapshotsCommand());
    root.addSubcommand(new TagCommand());
    root.addSubcommand(new UntagCommand());
    root.addSubcommand(new TagsCommand());
    root.addSubcommand(new PinCommand());
    root.addSubcommand(new UnpinCommand());
    root.addSubcommand(new PinsCommand());
    root.addSubcommand(new OrphansCommand());
    root.addSubcommand(new ErasuresCommand());
    root.addSubcommand(new PurgeCommand());
  }
}
