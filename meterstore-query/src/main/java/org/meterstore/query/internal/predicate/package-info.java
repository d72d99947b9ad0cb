/**
 * The predicates MeterStore pushes into a tier (unsupported, may change): Calcite's filter
 * conjuncts translated into one form both tiers render, the {@code from} range they allow, and
 * their text in plans.
 */
package org.meterstore.query.internal.predicate;
