/**
 * Unsupported internals: the commit protocol (no library retry, MeterStore's own bounded retry,
 * strict watermark advance, refused versus unknown outcomes) and the late-correction append.
 */
package org.meterstore.cold.internal.commit;
