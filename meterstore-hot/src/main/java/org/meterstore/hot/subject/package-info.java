/**
 * The subject registry (DESIGN § 9): pseudonymous references per (person, collection year), Art. 17
 * GDPR erasure with a suppression list and a rotatable key ring, legal holds, the § 60 Abs. 6 MsbG
 * retention sweep and the erasure trail. Readings carry only a {@link
 * org.meterstore.hot.subject.SubjectRef}; erasing destroys the link in the registry, never a
 * reading. Start at {@link org.meterstore.hot.subject.Subjects}, reached through {@code
 * HotStore.subjects()}.
 */
package org.meterstore.hot.subject;
