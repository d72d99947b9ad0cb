/**
 * The hot tier's archival source: the session-lock lease with its epoch row, the keyset cursor over
 * one partition and its SQL digest. Unsupported outside this module; may change without notice.
 */
package org.meterstore.hot.internal.archive;
