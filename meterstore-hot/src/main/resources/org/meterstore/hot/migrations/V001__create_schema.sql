-- MeterStore hot tier, migration 1: the registry of declared tables in MeterStore's schema.
-- ${schema} is replaced by the configured schema name, validated and quoted. The schema itself and
-- ${schema}.schema_history are created by the installer before this runs (only when missing, so a
-- DBA may create the schema for a role that may not create schemas).
-- Never edit this file once released: add a new V<NNN>__<description>.sql instead.

-- One row per declared table. The archival cycle checks archival_step against its configuration.
CREATE TABLE ${schema}.tables (
  name text PRIMARY KEY CHECK (name ~ '^[a-z][a-z0-9_]{0,33}$'),
  time_model text NOT NULL CHECK (time_model IN ('INTERVAL', 'POINT')),
  archival_step interval NOT NULL CHECK (archival_step > interval '0'),
  created_at timestamptz NOT NULL,
  -- The longest [from, to) of any stored reading whose span crosses its partition's upper bound,
  -- or null while there is none. Writers use it to bound the cross-partition overlap check.
  longest_crossing_span interval CHECK (longest_crossing_span > interval '0')
);
