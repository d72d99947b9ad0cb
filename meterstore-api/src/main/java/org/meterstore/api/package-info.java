/**
 * MeterStore's public contract: the error type every operation throws and, in sub-packages, the
 * metering domain (identifiers, calendar, readings, table definitions). This module depends on the
 * JDK only, so an application can model readings without pulling in a database driver.
 */
package org.meterstore.api;
