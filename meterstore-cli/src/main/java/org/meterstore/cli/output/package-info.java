/**
 * How the command prints results: a {@link org.meterstore.cli.output.Document} per command,
 * rendered either as aligned columns for people or as one JSON document for programs (decimals as
 * strings, instants ISO-8601 UTC).
 */
package org.meterstore.cli.output;
