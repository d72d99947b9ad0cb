/** Unsupported internals: writing sorted Parquet data files in bounded chunks. */
package org.meterstore.cold.internal.write;
