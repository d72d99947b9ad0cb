/**
 * Version resolution while reading (unsupported, may change): merging the {@code (malo_id, from)}
 * runs of a month's files ({@code MergeCursor}) and resolving each run to its winner ({@code
 * RunResolver}).
 */
package org.meterstore.query.internal.cold.merge;
