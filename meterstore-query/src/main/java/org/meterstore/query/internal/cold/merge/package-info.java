/**
 * Version resolution in a cold scan (unsupported, may change): the cursor over one sorted file in a
 * month's merge by {@code (malo_id, from)}, the growable row buffer merged or record-read rows are
 * copied into (its text interned so that ids compare across files), and the resolver that keeps the
 * winner of each merge key and scope by {@link org.meterstore.api.table.VersionOrder}.
 */
package org.meterstore.query.internal.cold.merge;
