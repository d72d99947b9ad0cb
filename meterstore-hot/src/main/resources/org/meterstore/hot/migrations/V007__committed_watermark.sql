-- MeterStore hot tier, migration 7: each table's committed watermark (DESIGN § 1, § 4).
-- ${schema} is replaced by the configured schema name, validated and quoted.
-- Never edit this file once released: add a new V<NNN>__<description>.sql instead.

-- The last W a cold commit of MeterStore's landed with, recorded after the commit. The floor
-- (hot_floor) may run ahead of it: a history import raises the floor before it commits, so that
-- no write lands in the range it is about to archive. A cold W below this value means the cold
-- table was rolled back behind MeterStore's last commit (the readings in between are in neither
-- tier), which queries and archival refuse. Null while nothing was recorded. It only ever rises.
-- Until now every recorded floor was a committed W (or an import's, which its re-run commits).
ALTER TABLE ${schema}.tables ADD COLUMN committed_watermark timestamptz;
UPDATE ${schema}.tables SET committed_watermark = hot_floor;
