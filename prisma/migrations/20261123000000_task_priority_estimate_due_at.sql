-- migrate:up
-- v1 tasks (issue 6): priority, estimate and a due timestamp. due_date stays (the v0 calendar feed reads it)
-- and is kept equal to the UTC date of due_at by the data layer.
CREATE TYPE task_priority AS ENUM ('low', 'normal', 'high', 'urgent');
ALTER TABLE tasks
  ADD COLUMN priority task_priority NOT NULL DEFAULT 'normal',
  ADD COLUMN estimate_minutes integer,
  ADD COLUMN due_at timestamptz(3),
  ADD CONSTRAINT tasks_estimate_minutes_check CHECK (estimate_minutes IS NULL OR estimate_minutes >= 0);

-- migrate:down
ALTER TABLE tasks
  DROP CONSTRAINT tasks_estimate_minutes_check,
  DROP COLUMN due_at,
  DROP COLUMN estimate_minutes,
  DROP COLUMN priority;
DROP TYPE task_priority;
