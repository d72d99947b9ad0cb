/**
 * Runnable examples, each a {@code main}: {@link org.meterstore.examples.EmbeddedQuickstart},
 * {@link org.meterstore.examples.SqlOverJdbc}, {@link
 * org.meterstore.examples.MaintenanceWithMetrics}, {@link
 * org.meterstore.examples.PrometheusMetrics} and {@link org.meterstore.examples.SubjectErasure}.
 * See {@code examples/README.md} for how to run them.
 */
package org.meterstore.examples;
