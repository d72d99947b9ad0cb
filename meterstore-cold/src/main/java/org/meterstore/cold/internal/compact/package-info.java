/**
 * Unsupported internals: compaction of a table's small files into files near the target size, with
 * MeterStore's writer and commit protocol (W carried, digest re-read, refused unless the table is
 * still at the planned snapshot). It lives apart from {@code internal.commit} because it adds and
 * removes no row.
 */
package org.meterstore.cold.internal.compact;
