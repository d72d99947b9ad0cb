/**
 * The batch writer: validation by the api's rules, the outcome of every reading decided against the
 * versions already stored, one {@code INSERT … SELECT FROM unnest(…)} per batch, the
 * cross-partition overlap check, and the mapping of constraint violations back to the reading that
 * caused them. Unsupported internal API.
 */
package org.meterstore.hot.internal.write;
