/**
 * Table definitions: the columns both tiers store, the merge key that identifies a reading, the
 * declared extra columns, and the per-table tiering policy. Both tiers derive their schemas from
 * {@link org.meterstore.api.table.TableDefinition#columns()} so they cannot disagree.
 */
package org.meterstore.api.table;
