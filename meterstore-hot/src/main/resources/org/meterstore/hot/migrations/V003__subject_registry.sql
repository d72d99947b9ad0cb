-- MeterStore hot tier, migration 3: the deployment-wide subject registry (DESIGN § 9).
-- ${schema} is replaced by the configured schema name, validated and quoted.
-- Version 2 is reserved for the archival work; the runner applies every bundled version that is
-- missing, in version order, so a gap is allowed. Nothing here depends on version 2.
-- Never edit this file once released: add a new V<NNN>__<description>.sql instead.

-- One row per (person, collection year). The natural identifier is stored here and nowhere else;
-- readings carry only the reference. Deleting a row destroys the link, never a reading.
CREATE TABLE ${schema}.subjects (
  reference text PRIMARY KEY
    CONSTRAINT subjects_reference_is_canonical
    CHECK (reference ~ '^s[0-9]{4}_[A-Za-z0-9_-]{22}$'),
  natural_id text NOT NULL
    CONSTRAINT subjects_natural_id_is_bounded CHECK (length(natural_id) BETWEEN 1 AND 256),
  collection_year integer NOT NULL
    CONSTRAINT subjects_collection_year_is_known CHECK (collection_year BETWEEN 1970 AND 9000),
  registered_at timestamptz NOT NULL,
  CONSTRAINT subjects_year_in_reference
    CHECK (substr(reference, 2, 4)::integer = collection_year),
  CONSTRAINT subjects_one_reference_per_year UNIQUE (natural_id, collection_year)
);

-- The retention sweep deletes by collection year.
CREATE INDEX subjects_collection_year ON ${schema}.subjects (collection_year);

-- Legal holds (Art. 18 GDPR restriction, billing disputes). A hold is placed on one reference and
-- suspends the sweep for every mapping of that person while held_until is null (indefinite) or
-- later than the sweep's now. It goes with the mapping it was placed on.
CREATE TABLE ${schema}.subject_holds (
  reference text PRIMARY KEY REFERENCES ${schema}.subjects (reference) ON DELETE CASCADE,
  reason text NOT NULL,
  held_until timestamptz,
  actor text NOT NULL,
  placed_at timestamptz NOT NULL
);

-- Erased identifiers as HMAC-SHA256(key, normalised identifier), hex, with the id of the key that
-- wrote them. The secrets never reach the database.
CREATE TABLE ${schema}.subject_suppressions (
  digest text NOT NULL CONSTRAINT subject_suppressions_digest_is_hex
    CHECK (digest ~ '^[0-9a-f]{64}$'),
  key_id text NOT NULL CONSTRAINT subject_suppressions_key_id_is_canonical
    CHECK (key_id ~ '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$'),
  suppressed_at timestamptz NOT NULL,
  PRIMARY KEY (digest, key_id)
);

-- The append-only audit of erasures, holds, releases and lifted suppressions. Never a natural
-- identifier: references, counts, reason, actor and instants only.
CREATE TABLE ${schema}.erasure_trail (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at timestamptz NOT NULL,
  action text NOT NULL
    CONSTRAINT erasure_trail_action_is_known
    CHECK (action IN ('ERASE', 'HOLD', 'RELEASE', 'LIFT_SUPPRESSION')),
  trigger text CONSTRAINT erasure_trail_trigger_is_known
    CHECK (trigger IN ('request', 'retention')),
  subject_references text[] NOT NULL,
  affected integer NOT NULL CHECK (affected >= 0),
  reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 1000),
  actor text NOT NULL CHECK (length(actor) BETWEEN 1 AND 200),
  held_until timestamptz,
  due_through integer,
  suppression_key_id text,
  CONSTRAINT erasure_trail_trigger_iff_erase CHECK ((action = 'ERASE') = (trigger IS NOT NULL))
);

CREATE INDEX erasure_trail_at ON ${schema}.erasure_trail (at);

-- Appending is the only change the trail accepts. The owner could still disable the trigger: this
-- guards against mistakes and application bugs, not against the table's owner.
CREATE FUNCTION ${schema}.erasure_trail_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'erasure_trail is append-only: % refused', TG_OP
    USING ERRCODE = 'restrict_violation';
END
$$;

CREATE TRIGGER erasure_trail_append_only_rows
  BEFORE UPDATE OR DELETE ON ${schema}.erasure_trail
  FOR EACH ROW EXECUTE FUNCTION ${schema}.erasure_trail_refuse_change();

CREATE TRIGGER erasure_trail_append_only_truncate
  BEFORE TRUNCATE ON ${schema}.erasure_trail
  FOR EACH STATEMENT EXECUTE FUNCTION ${schema}.erasure_trail_refuse_change();
