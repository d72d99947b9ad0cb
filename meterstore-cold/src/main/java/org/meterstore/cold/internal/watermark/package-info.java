/**
 * Reading W from snapshot summaries, and the one walk back through parents past foreign commits.
 * Its own package because both the commit protocol and snapshot maintenance read W. Unsupported
 * outside {@code meterstore-cold}.
 */
package org.meterstore.cold.internal.watermark;
