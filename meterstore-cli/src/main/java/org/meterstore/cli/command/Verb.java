package org.meterstore.cli.command;

import java.util.concurrent.Callable;
import picocli.CommandLine.ParentCommand;

/** What every verb shares: the root command with the global options and the streams. */
abstract class Verb implements Callable<Integer> {
  @ParentCommand MeterStoreCommand root;
}
