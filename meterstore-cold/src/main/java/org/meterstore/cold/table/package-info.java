/**
 * One MeterStore table's cold tier: {@link org.meterstore.cold.table.ColdTable}, its Iceberg table
 * with W in every MeterStore snapshot, the archival and correction commits, expiry, orphan removal
 * and the drift check. Get one from {@link org.meterstore.cold.ColdStore#table}.
 */
package org.meterstore.cold.table;
