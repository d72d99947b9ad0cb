-- MeterStore hot tier, migration 2: reader pins.
-- A query registers the hot window it will read, so that archival does not reclaim (drop) a
-- detached partition that the query enumerated before the archival run. Pins expire on their own:
-- a crashed query process cannot hold a partition forever.
-- Never edit this file once released: add a new V<NNN>__<description>.sql instead.

CREATE TABLE ${schema}.reader_pins (
  id bigserial PRIMARY KEY,
  table_name text NOT NULL REFERENCES ${schema}.tables (name) ON DELETE CASCADE,
  lower_bound timestamptz NOT NULL,
  upper_bound timestamptz NOT NULL CHECK (upper_bound > lower_bound),
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL CHECK (expires_at > created_at)
);

CREATE INDEX reader_pins_by_table ON ${schema}.reader_pins (table_name, expires_at);
