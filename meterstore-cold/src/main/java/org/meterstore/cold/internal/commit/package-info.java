/**
 * Unsupported internals: the commit protocol (no library retry, MeterStore's own bounded retry,
 * strict watermark advance, refused versus unknown outcomes), the late-correction append, and the
 * reading back of archival commit summaries next to the code that writes them.
 */
package org.meterstore.cold.internal.commit;
