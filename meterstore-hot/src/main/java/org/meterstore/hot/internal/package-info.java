/**
 * The hot tier's implementation. Unsupported: nothing in this package or its sub-packages is API;
 * it may change in any release without notice. Use {@link org.meterstore.hot.HotStore}.
 */
package org.meterstore.hot.internal;
