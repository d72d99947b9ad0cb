/**
 * The subject registry's implementation: the registry tables' SQL, the suppression list's HMACs,
 * the erasure trail and the batched retention sweep. Unsupported internal API; use {@link
 * org.meterstore.hot.subject.Subjects}.
 */
package org.meterstore.hot.internal.subject;
