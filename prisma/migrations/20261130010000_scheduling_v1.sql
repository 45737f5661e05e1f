-- migrate:up
-- v1 appointments and absences (issue 14). An appointment keeps the IANA zone it was made in and its attendees
-- (members of the workspace; their availability counts it too). An absence gets a status (requested, approved,
-- rejected, canceled) and half days at either end; its dates are inclusive start, exclusive end. The absence kinds
-- take the v1 names (sick, parental) and gain `unpaid`.
ALTER TABLE appointments
  ADD COLUMN time_zone text NOT NULL DEFAULT 'UTC',
  ADD COLUMN attendee_member_ids uuid[] NOT NULL DEFAULT '{}';

CREATE TYPE absence_status AS ENUM ('requested', 'approved', 'rejected', 'canceled');
ALTER TYPE absence_kind RENAME VALUE 'sick_leave' TO 'sick';
ALTER TYPE absence_kind RENAME VALUE 'parental_leave' TO 'parental';
ALTER TYPE absence_kind ADD VALUE IF NOT EXISTS 'unpaid';
ALTER TABLE absences
  ADD COLUMN status absence_status NOT NULL DEFAULT 'requested',
  ADD COLUMN half_day_start boolean NOT NULL DEFAULT false,
  ADD COLUMN half_day_end boolean NOT NULL DEFAULT false;

-- migrate:down
ALTER TABLE absences DROP COLUMN half_day_end, DROP COLUMN half_day_start, DROP COLUMN status;
DROP TYPE absence_status;
ALTER TYPE absence_kind RENAME VALUE 'parental' TO 'parental_leave';
ALTER TYPE absence_kind RENAME VALUE 'sick' TO 'sick_leave';
ALTER TABLE appointments DROP COLUMN attendee_member_ids, DROP COLUMN time_zone;
