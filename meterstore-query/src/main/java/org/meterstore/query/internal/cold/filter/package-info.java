/**
 * The predicates of a cold scan (unsupported, may change): {@link
 * org.meterstore.query.internal.cold.filter.ColdPred}, the bound form the planner's predicates take
 * when a scan opens, and their evaluation on column batches with SQL's three-valued logic, compiled
 * once per unit run (a decimal literal scaled once, a text comparison made once per dictionary id).
 */
package org.meterstore.query.internal.cold.filter;
