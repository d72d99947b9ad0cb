/** Orphan files: files under a cold table's location that no retained snapshot references. */
package org.meterstore.cold.orphan;
