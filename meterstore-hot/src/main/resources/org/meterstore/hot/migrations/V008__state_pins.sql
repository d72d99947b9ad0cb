-- MeterStore hot tier, migration 8: state pins for foreign readers (issue #34).
-- A Spark or Trino job that reads the cold table at snapshot S and the hot parent from W up pins
-- that state: while the pin lives, archival archives no window of the table (so W stays, and no
-- partition the job reads is detached), and snapshot expiry keeps S. The pin names its holder.
-- Nullable columns without a default change only the catalog (no rewrite); the two CHECKs scan the
-- few live pins. The ACCESS EXCLUSIVE lock is on this small bookkeeping table only, never on a
-- readings table, and held for an instant.
-- Never edit this file once released: add a new V<NNN>__<description>.sql instead.

ALTER TABLE ${schema}.reader_pins
  ADD COLUMN holder text,
  ADD COLUMN snapshot_id bigint,
  ADD COLUMN watermark timestamptz,
  ADD CONSTRAINT reader_pins_state CHECK (holder IS NOT NULL OR (snapshot_id IS NULL AND watermark IS NULL)),
  ADD CONSTRAINT reader_pins_state_watermark CHECK (holder IS NULL OR watermark IS NOT NULL);
