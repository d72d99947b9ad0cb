-- MeterStore hot tier, migration 6: each table's fixed resolution (DESIGN § 4).
-- ${schema} is replaced by the configured schema name, validated and quoted.
-- Never edit this file once released: add a new V<NNN>__<description>.sql instead.

-- The resolution a table was created with (canonical ISO-8601, e.g. PT15M), or null for a table
-- whose readings may have any span. It decides the table's grid CHECK and whether its partitions
-- carry the span exclusion constraint, so a definition that declares another one is refused.
-- Tables created before this migration declared none.
ALTER TABLE ${schema}.tables ADD COLUMN resolution text;
