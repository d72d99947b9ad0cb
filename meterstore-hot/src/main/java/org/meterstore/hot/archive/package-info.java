/**
 * What the archival cycle needs from the hot tier besides the partition lifecycle: the table's
 * archival lease (a session advisory lock with an epoch), the rows of one partition streamed in
 * primary-key order one chunk at a time, and that partition's content digest to re-check the cold
 * commit against. Obtain through {@code HotStore.archival()}.
 */
package org.meterstore.hot.archive;
