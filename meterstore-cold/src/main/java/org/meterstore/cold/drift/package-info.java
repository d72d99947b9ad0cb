/**
 * Schema drift: the comparison, by column name, of the schema MeterStore is configured to write
 * with the schema the cold table has, and the verdict that decides whether archival may run.
 */
package org.meterstore.cold.drift;
