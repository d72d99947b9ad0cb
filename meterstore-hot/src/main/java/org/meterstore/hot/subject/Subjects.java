package org.meterstore.hot.subject;

import java.time.Instant;
import java.util.List;
import org.meterstore.api.MeterStoreException;
import org.meterstore.api.commodity.Commodity;
import org.meterstore.api.privacy.Retention;

/**
 * The deployment-wide subject registry in the hot database (DESIGN § 9).
 *
 * <p>A natural identifier (a customer number, a contract id: whatever names a person) is mapped to
 * one {@link SubjectRef} per collection year; readings carry only the reference. Erasing a person
 * deletes the mappings, which leaves every reading in place and unlinkable: O(1), no rewrite of
 * either tier. The natural identifier is stored in the mapping rows and nowhere else: never in the
 * trail, a log line, a metric or an error message.
 *
 * <p>Identifiers are normalised before use: Unicode NFKC, surrounding white space removed, upper
 * case ({@code Locale.ROOT}). They must then be 1 to 256 characters without control characters.
 * Collection years are balancing years in Europe/Berlin: a gas reading before 06:00 local time on 1
 * January belongs to the previous year.
 *
 * <p>Registration, erasure, holds and lifting a suppression serialise per identifier on a
 * transaction-scoped advisory lock, so an erasure cannot miss a mapping registered concurrently.
 * Every method is thread-safe and runs in its own transaction(s): a failure leaves nothing of that
 * transaction behind. {@code now} is the caller's current instant (UTC); the registry reads no
 * clock. The tables exist once {@code HotStore.createTables} has run (an empty list will do). Every
 * failure is a {@link MeterStoreException}; {@code STORAGE} when the database fails, {@code CONFIG}
 * when the role lacks a privilege.
 */
public interface Subjects {
  /** The batch size {@link #sweep(Retention, String, String, Instant)} uses. */
  int DEFAULT_SWEEP_BATCH_SIZE = 1000;

  /**
   * The reference of the person {@code naturalId} for the collection year of {@code at}: the same
   * reference for every call with the same person and year, a new one for a new year.
   *
   * @param naturalId the person's identifier, normalised as described above
   * @param at an instant of a reading of that person (its {@code from})
   * @param commodity the reading's commodity, which decides the balancing day (gas day for GAS)
   * @param now recorded as the mapping's {@code registered_at}
   * @throws MeterStoreException {@code INTEGRITY_VIOLATION} when the identifier is on the
   *     suppression list under any key of the ring (it was erased; the delivery must change),
   *     counted by {@code meterstore.registrations_suppressed}; {@code INVALID_INPUT} for an
   *     identifier that breaks the rules above (the message never shows it)
   */
  SubjectRef registerSubject(String naturalId, Instant at, Commodity commodity, Instant now);

  /**
   * Erases every mapping of the person {@code reference} belongs to, all collection years (Art. 17
   * GDPR). With a key ring configured the identifier goes on the suppression list under the current
   * key. One trail entry (trigger {@code request}) records the references, never the identifier,
   * also when nothing was left to erase. Counted by {@code meterstore.subjects_erased{trigger=
   * "request"}}.
   *
   * @throws MeterStoreException {@code INTEGRITY_VIOLATION} when the person is under a legal hold
   *     (release it first; nothing is erased)
   */
  ErasureResult eraseSubject(SubjectRef reference, String reason, String actor, Instant now);

  /**
   * As {@link #eraseSubject(SubjectRef, String, String, Instant)}, by natural identifier: the
   * identifier is put on the suppression list (with a key ring) even when it has no mapping, so
   * data arriving later cannot register it.
   *
   * @param reason why; must not contain the identifier
   */
  ErasureResult eraseSubject(String naturalId, String reason, String actor, Instant now);

  /**
   * Removes the identifier from the suppression list under every key of the ring, so it can be
   * registered again; audited in the trail.
   *
   * @return the number of suppression entries removed (0 when it was not suppressed)
   * @throws MeterStoreException {@code CONFIG} when no key ring is configured
   */
  int liftSuppression(String naturalId, String reason, String actor, Instant now);

  /**
   * Places a legal hold on {@code reference}: no sweep erases any mapping of that person while the
   * hold lasts, and {@link #eraseSubject} refuses it. A second hold on the same reference replaces
   * the first. Audited in the trail.
   *
   * @param until the end of the hold (exclusive, UTC), after {@code now}; null for indefinite
   * @throws MeterStoreException {@code INVALID_INPUT} when the registry has no such reference
   */
  void holdSubject(SubjectRef reference, String reason, Instant until, String actor, Instant now);

  /**
   * Releases the hold placed on {@code reference} (holds on the person's other references stay).
   * Audited in the trail when a hold was released.
   *
   * @return false when there was no hold on that reference
   */
  boolean releaseHold(SubjectRef reference, String reason, String actor, Instant now);

  /**
   * The retention sweep, with {@link #DEFAULT_SWEEP_BATCH_SIZE} and no batch limit.
   *
   * @see #sweep(Retention, String, String, Instant, int, int)
   */
  SweepResult sweep(Retention retention, String reason, String actor, Instant now);

  /**
   * The retention sweep without a batch limit.
   *
   * @see #sweep(Retention, String, String, Instant, int, int)
   */
  SweepResult sweep(Retention retention, String reason, String actor, Instant now, int batchSize);

  /**
   * Erases every mapping whose collection year is due under {@code retention} at {@code now}
   * ({@link Retention#dueThrough}), except those of persons under a legal hold. Reads no readings
   * table: batches of {@code DELETE … WHERE collection_year <= ? AND NOT held … LIMIT batchSize} on
   * the registry, each its own transaction with one trail entry (trigger {@code retention}) listing
   * the erased references, and counted after commit by {@code meterstore.subjects_erased{trigger=
   * "retention"}}. Rows another transaction has locked are skipped, so concurrent sweeps share the
   * work and never count a mapping twice. Idempotent and resumable: a sweep that failed or stopped
   * at its limit keeps the batches it committed, and the next one continues.
   *
   * @param batchSize mappings per batch, 1 to 100 000
   * @param maxBatches the most batches this call runs, at least 1 ({@code Integer.MAX_VALUE} for no
   *     limit); bounded calls let a maintenance cycle stay short
   * @throws MeterStoreException on failure, with every batch committed before it still committed
   */
  SweepResult sweep(
      Retention retention, String reason, String actor, Instant now, int batchSize, int maxBatches);

  /**
   * The erasure entries of the trail with {@code fromInclusive <= at < toExclusive}, oldest first.
   *
   * @param trigger only entries of this trigger, or null for both
   * @param limit the most entries returned, 1 to 100 000
   */
  List<TrailEntry> erasures(Instant fromInclusive, Instant toExclusive, Trigger trigger, int limit);

  /**
   * Every trail entry (erasures, holds, releases, lifted suppressions) with {@code fromInclusive <=
   * at < toExclusive}, oldest first, at most {@code limit} (1 to 100 000).
   */
  List<TrailEntry> trail(Instant fromInclusive, Instant toExclusive, int limit);

  /**
   * The key ids of suppression entries whose key is not in the configured ring (all of them when
   * none is configured), sorted. Such entries match no registration: an erased identifier they
   * cover can be registered again. Non-empty means a key was removed from the ring too early.
   */
  List<String> suppressionKeysMissing();
}
