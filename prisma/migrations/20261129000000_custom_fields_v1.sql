-- migrate:up
-- v1 custom fields (issue 13). A definition gets a stable key (unique in its workspace), the target types it applies
-- to (several, as the registry's CustomFieldDefinition has them), `required` and its select options (jsonb, an array of
-- { key, label, archived }); its single target type, free-form config and position go (nothing read them).
-- Values move from a row per (definition, target) to one set per target: a jsonb object keyed by definition id with
-- its own revision, so a write that changes several values is one compare-and-set statement (INSERT … ON CONFLICT DO
-- UPDATE … WHERE revision = $expected), and "which values use this option / this target type" is one query over a
-- GIN index. Like a document's target, the target has no foreign key (one column names rows of three tables); the
-- service checks it on every write, and nothing a target can be is ever deleted.
ALTER TABLE custom_field_definitions RENAME COLUMN name TO label;
ALTER TABLE custom_field_definitions
  ADD COLUMN key text,
  ADD COLUMN target_types custom_field_target_type[],
  ADD COLUMN required boolean NOT NULL DEFAULT false,
  ADD COLUMN options jsonb NOT NULL DEFAULT '[]'::jsonb;
UPDATE custom_field_definitions SET key = 'field_' || replace(id::text, '-', ''), target_types = ARRAY[target_type];
ALTER TABLE custom_field_definitions
  ALTER COLUMN key SET NOT NULL,
  ALTER COLUMN target_types SET NOT NULL,
  ADD CONSTRAINT custom_field_definitions_target_types_check CHECK (cardinality(target_types) > 0);
DROP INDEX custom_field_definitions_target_type_archived_idx;
ALTER TABLE custom_field_definitions DROP COLUMN target_type, DROP COLUMN config, DROP COLUMN position;
CREATE UNIQUE INDEX custom_field_definitions_workspace_id_key_key ON custom_field_definitions (workspace_id, key);

DROP TABLE custom_field_values;
CREATE TABLE custom_field_value_sets (
  workspace_id uuid NOT NULL,
  target_type  custom_field_target_type NOT NULL,
  target_id    uuid NOT NULL,
  field_values jsonb NOT NULL DEFAULT '{}'::jsonb,
  revision     integer NOT NULL DEFAULT 1,
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  updated_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT custom_field_value_sets_pkey PRIMARY KEY (workspace_id, target_type, target_id),
  CONSTRAINT custom_field_value_sets_field_values_check CHECK (jsonb_typeof(field_values) = 'object')
);
CREATE INDEX custom_field_value_sets_field_values_idx ON custom_field_value_sets USING gin (field_values);
ALTER TABLE custom_field_value_sets ADD CONSTRAINT custom_field_value_sets_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;

-- migrate:down
DROP TABLE custom_field_value_sets;
CREATE TABLE custom_field_values (
  workspace_id  uuid NOT NULL,
  id            uuid NOT NULL DEFAULT uuidv7(),
  definition_id uuid NOT NULL,
  target_type   custom_field_target_type NOT NULL,
  target_id     uuid NOT NULL,
  value         jsonb NOT NULL,
  revision      integer NOT NULL DEFAULT 1,
  created_at    timestamptz(3) NOT NULL DEFAULT now(),
  updated_at    timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT custom_field_values_pkey PRIMARY KEY (workspace_id, id)
);
CREATE INDEX custom_field_values_workspace_id_target_type_target_id_idx ON custom_field_values (workspace_id, target_type, target_id);
CREATE UNIQUE INDEX custom_field_values_workspace_id_definition_id_target_id_key ON custom_field_values (workspace_id, definition_id, target_id);
ALTER TABLE custom_field_values ADD CONSTRAINT custom_field_values_workspace_id_fkey
  FOREIGN KEY (workspace_id) REFERENCES workspaces (id) ON DELETE RESTRICT ON UPDATE RESTRICT;
ALTER TABLE custom_field_values ADD CONSTRAINT custom_field_values_workspace_id_definition_id_fkey
  FOREIGN KEY (workspace_id, definition_id) REFERENCES custom_field_definitions (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;

DROP INDEX custom_field_definitions_workspace_id_key_key;
ALTER TABLE custom_field_definitions
  ADD COLUMN target_type custom_field_target_type,
  ADD COLUMN config jsonb NOT NULL DEFAULT '{}'::jsonb,
  ADD COLUMN position integer NOT NULL DEFAULT 0;
UPDATE custom_field_definitions SET target_type = target_types[1];
ALTER TABLE custom_field_definitions
  ALTER COLUMN target_type SET NOT NULL,
  DROP CONSTRAINT custom_field_definitions_target_types_check,
  DROP COLUMN options,
  DROP COLUMN required,
  DROP COLUMN target_types,
  DROP COLUMN key;
ALTER TABLE custom_field_definitions RENAME COLUMN label TO name;
CREATE INDEX custom_field_definitions_target_type_archived_idx ON custom_field_definitions (workspace_id, target_type, archived_at);
