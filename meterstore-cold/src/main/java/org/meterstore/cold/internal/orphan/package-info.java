/** Unsupported internals: the in-JVM orphan-file scan over the FileIO's prefix listing. */
package org.meterstore.cold.internal.orphan;
