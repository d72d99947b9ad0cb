/**
 * Bulk import of settled history into the cold tier ({@code MeterTable.importHistory}, {@code
 * docs/import.md}): the sources that read readings from files in the storage model's columns, the
 * options and the result of an import.
 */
package org.meterstore.imports;
