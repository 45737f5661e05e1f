-- migrate:up
-- v1 automations (issue 14, docs/automations.md). A definition holds its draft (trigger and steps, compare-and-set
-- on revision) and the number of its latest published version; the credential that published it last is its owner,
-- whose authority every run acts with (as it is at run time). A published version is immutable: no code path
-- updates it and the trigger below refuses an UPDATE. A run is one per (definition, triggering event): the unique
-- key makes the relay's fan-out exactly-once; steps_completed is the run's cursor, advanced by compare-and-set in the
-- transaction that applies each step. Outbox events record the automation run that caused them and how deep the
-- chain of automations is, so an automation's own writes never trigger it again and a chain stops at a bound.
ALTER TABLE automation_definitions
  DROP COLUMN enabled,
  ADD COLUMN trigger jsonb NOT NULL DEFAULT '{}'::jsonb,
  ADD COLUMN steps jsonb NOT NULL DEFAULT '[]'::jsonb,
  ADD COLUMN published_version integer,
  ADD COLUMN owner_credential_id uuid;
ALTER TABLE automation_definitions ALTER COLUMN trigger DROP DEFAULT, ALTER COLUMN steps DROP DEFAULT;

ALTER TABLE automation_versions ADD COLUMN note text;

CREATE FUNCTION automation_versions_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'automation versions are immutable';
END $$;
CREATE TRIGGER automation_versions_no_update BEFORE UPDATE ON automation_versions FOR EACH ROW EXECUTE FUNCTION automation_versions_immutable();

ALTER TABLE automation_runs
  ADD COLUMN event_id uuid NOT NULL,
  ADD COLUMN event_type text NOT NULL,
  ADD COLUMN version_number integer NOT NULL,
  ADD COLUMN steps_completed integer NOT NULL DEFAULT 0,
  ADD COLUMN depth integer NOT NULL DEFAULT 1,
  ADD COLUMN resume_at timestamptz(3);
CREATE UNIQUE INDEX automation_runs_workspace_id_definition_id_event_id_key ON automation_runs (workspace_id, definition_id, event_id);
CREATE INDEX automation_runs_status_updated_at_idx ON automation_runs (status, updated_at);

ALTER TABLE outbox_events
  ADD COLUMN caused_by_definition_id uuid,
  ADD COLUMN caused_by_run_id uuid,
  ADD COLUMN automation_depth integer NOT NULL DEFAULT 0;

-- migrate:down
ALTER TABLE outbox_events DROP COLUMN automation_depth, DROP COLUMN caused_by_run_id, DROP COLUMN caused_by_definition_id;
DROP INDEX automation_runs_status_updated_at_idx;
DROP INDEX automation_runs_workspace_id_definition_id_event_id_key;
ALTER TABLE automation_runs DROP COLUMN resume_at, DROP COLUMN depth, DROP COLUMN steps_completed, DROP COLUMN version_number, DROP COLUMN event_type, DROP COLUMN event_id;
DROP TRIGGER automation_versions_no_update ON automation_versions;
DROP FUNCTION automation_versions_immutable();
ALTER TABLE automation_versions DROP COLUMN note;
ALTER TABLE automation_definitions DROP COLUMN owner_credential_id, DROP COLUMN published_version, DROP COLUMN steps, DROP COLUMN trigger,
  ADD COLUMN enabled boolean NOT NULL DEFAULT false;
