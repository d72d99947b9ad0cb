/**
 * What a MeterStore commit writes into its snapshot summary ({@link
 * org.meterstore.cold.internal.stamp.CommitStamp}: the one writer and the one parser) and the one
 * walk back through a snapshot's parents ({@link
 * org.meterstore.cold.internal.stamp.SnapshotChain}). The lowest package of the cold tier's commit
 * code: the commit protocol, W and snapshot maintenance all build on it, it builds on none of them.
 * Unsupported outside {@code meterstore-cold}.
 */
package org.meterstore.cold.internal.stamp;
