/**
 * What the archival run and the history import share: {@link
 * org.meterstore.maintenance.window.TierWatermark}, W as both tiers agree on it (the cold tier's W,
 * refused when it fell below the committed watermark the hot tier recorded), and {@link
 * org.meterstore.maintenance.window.WindowStep}, the one protocol that commits a window of rows at
 * W: lease check, cold commit, committed W recorded in the hot tier, digest compared. Only the
 * source of the rows differs (a detached hot partition, or a chunk of an import file).
 */
package org.meterstore.maintenance.window;
