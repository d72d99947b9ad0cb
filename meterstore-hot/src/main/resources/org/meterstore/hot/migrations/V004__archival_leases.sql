-- MeterStore hot tier, migration 4: archival lease epochs.
-- (Version 3 is reserved for the subject registry; versions are applied in order, and a version
-- that is missing between applied ones is applied once a MeterStore that knows it runs.)
-- The archival lease of a table is a session advisory lock held on a dedicated connection for the
-- whole archival run. Each acquisition increments the table's epoch here, in the lock holder's
-- session, so every archival commit carries an epoch that no earlier holder can reuse.
-- Never edit this file once released: add a new V<NNN>__<description>.sql instead.

CREATE TABLE ${schema}.archival_leases (
  table_name text PRIMARY KEY REFERENCES ${schema}.tables (name) ON DELETE CASCADE,
  epoch bigint NOT NULL CHECK (epoch > 0),
  holder text NOT NULL,
  acquired_at timestamptz NOT NULL
);
