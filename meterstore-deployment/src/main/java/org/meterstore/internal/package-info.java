/**
 * The deployment module's implementation: unsupported outside {@code meterstore}, may change in any
 * release.
 */
package org.meterstore.internal;
