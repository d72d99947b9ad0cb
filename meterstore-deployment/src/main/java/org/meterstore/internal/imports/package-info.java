/**
 * How {@code MeterCatalog.importHistory} runs: the pre-flight pass and its refusals, chunking,
 * routing each chunk by W under the archival lease, and the CSV reader. Unsupported outside {@code
 * meterstore}; may change in any release.
 */
package org.meterstore.internal.imports;
