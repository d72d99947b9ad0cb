/**
 * The cold executor's column layout and row buffers (unsupported, may change): which columns a scan
 * reads and where ({@code ScanColumns}), the sink a batch of rows goes to, and the buffers that
 * hold decoded rows for merging, with interned strings. The bottom of the executor: it depends on
 * none of its sibling packages.
 */
package org.meterstore.query.internal.cold.batch;
