/** Unsupported internals: the name-based schema comparison behind the drift check. */
package org.meterstore.cold.internal.drift;
