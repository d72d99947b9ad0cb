/**
 * The cold executor's pushed predicates (unsupported, may change): the predicate tree ({@code
 * ColdPred}), its evaluation on column vectors ({@code BatchFilter}, {@code FilterLeaf}), and the
 * skipping of whole files by their statistics ({@code FileElision}).
 */
package org.meterstore.query.internal.cold.filter;
