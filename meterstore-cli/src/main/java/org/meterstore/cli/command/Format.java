package org.meterstore.cli.command;

/** How a command prints its result document. */
public enum Format {
  /** Aligned columns for people. */
  TABLE,
  /** One JSON document: decimals as strings, instants ISO-8601 in UTC. */
  JSON
}
