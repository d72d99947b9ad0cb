/** Reader pins stored as rows. Unsupported outside this module; may change without notice. */
package org.meterstore.hot.internal.pin;
