-- MeterStore hot tier, migration 5: each table's floor (DESIGN § 4).
-- ${schema} is replaced by the configured schema name, validated and quoted.
-- Never edit this file once released: add a new V<NNN>__<description>.sql instead.

-- The archiver records each table's committed watermark W here after every archival commit and
-- before every reclamation. No partition is created and no row is stored with "from" below it: such
-- a row would be invisible to every query, which reads "from" < W from the cold tier. Null while
-- nothing was recorded (no floor). It only ever rises.
ALTER TABLE ${schema}.tables ADD COLUMN hot_floor timestamptz;
