/**
 * How {@code MeterTable.importHistory} runs: the pre-flight pass and its refusals, chunking, and
 * routing each chunk by W under the archival lease (the CSV and Parquet readers are package-private
 * in {@code org.meterstore.imports}). Unsupported outside {@code meterstore}; may change in any
 * release.
 */
package org.meterstore.internal.imports;
