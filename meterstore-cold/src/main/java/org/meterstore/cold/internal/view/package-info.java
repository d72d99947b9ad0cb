/** The resolved view's publisher over Iceberg's {@code ViewCatalog} (ADR 0025). */
package org.meterstore.cold.internal.view;
