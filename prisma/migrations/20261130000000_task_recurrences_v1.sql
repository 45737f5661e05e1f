-- migrate:up
-- v1 task recurrences (issue 14). A series keeps its rule as the registry's structured RecurrenceRule (jsonb; the
-- RRULE text is derived from it when the series is expanded) with its first local day and IANA time zone.
-- next_occurrence_at is the cursor: the first instant not yet materialised (null when the series has ended);
-- last_occurrence_at the last one materialised. Occurrences are rows of their own: the unique keys below make a
-- materialisation exactly-once (the insert is ON CONFLICT DO NOTHING in the transaction that advances the cursor),
-- whether a worker restarts mid-run or two workers run at once.
ALTER TABLE task_recurrences
  DROP COLUMN rule,
  ADD COLUMN rule jsonb NOT NULL,
  ADD COLUMN starts_on date NOT NULL,
  ADD COLUMN last_checked_at timestamptz(3);

CREATE TABLE task_occurrences (
  workspace_id      uuid NOT NULL,
  id                uuid NOT NULL DEFAULT uuidv7(),
  recurrence_id     uuid NOT NULL,
  scheduled_for     timestamptz(3) NOT NULL,
  source            text NOT NULL CHECK (source IN ('schedule', 'external-event', 'recheck')),
  status            text NOT NULL CHECK (status IN ('scheduled', 'created', 'skipped', 'failed')),
  task_id           uuid,
  external_event_id text,
  created_at        timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT task_occurrences_pkey PRIMARY KEY (workspace_id, id),
  CONSTRAINT task_occurrences_recurrence_fkey FOREIGN KEY (workspace_id, recurrence_id) REFERENCES task_recurrences (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT,
  CONSTRAINT task_occurrences_task_fkey FOREIGN KEY (workspace_id, task_id) REFERENCES tasks (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT
);
-- One occurrence per scheduled instant of a series, and one per external event id.
CREATE UNIQUE INDEX task_occurrences_schedule_key ON task_occurrences (workspace_id, recurrence_id, scheduled_for) WHERE external_event_id IS NULL;
CREATE UNIQUE INDEX task_occurrences_external_event_key ON task_occurrences (workspace_id, recurrence_id, external_event_id) WHERE external_event_id IS NOT NULL;
CREATE INDEX task_occurrences_recurrence_id_idx ON task_occurrences (workspace_id, recurrence_id, id);

-- migrate:down
DROP TABLE task_occurrences;
ALTER TABLE task_recurrences
  DROP COLUMN last_checked_at,
  DROP COLUMN starts_on,
  DROP COLUMN rule,
  ADD COLUMN rule text NOT NULL;
