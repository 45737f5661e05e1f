-- migrate:up
-- Issue 13: comments and the activity of contacts, projects and tasks.
--
-- Comments: `edited_at` is set by an edit of the body (null until then). A comment has exactly one author, a member
-- or a service account (the initial CHECK allowed none). Deleting a comment sets `archived_at` (like every
-- archivable row it is never physically deleted); a deleted comment is 404 everywhere. Lists of one target page by
-- id on (workspace_id, target_type, target_id, id), which replaces the created_at index nothing pages by.
ALTER TABLE comments
  ADD COLUMN edited_at timestamptz(3),
  DROP CONSTRAINT comments_single_author_check,
  ADD CONSTRAINT comments_one_author_check CHECK (num_nonnulls(author_member_id, author_service_account_id) = 1);
DROP INDEX comments_workspace_id_target_type_target_id_created_at_idx;
CREATE INDEX comments_workspace_id_target_type_target_id_id_idx ON comments (workspace_id, target_type, target_id, id);

-- Activity is derived from the event log. Each event now records who made the change: the principal of the request
-- whose procedure appended it (`actor_type` member or service_account, `actor_id` its id); both null for a change the
-- platform made by itself (worker jobs) and for events appended before this migration.
ALTER TABLE outbox_events
  ADD COLUMN actor_type text,
  ADD COLUMN actor_id uuid,
  ADD CONSTRAINT outbox_events_actor_check CHECK ((actor_type IS NULL) = (actor_id IS NULL) AND (actor_type IS NULL OR actor_type IN ('member', 'service_account')));

-- One target's own events in sequence order (a keyset range scan per activity page); it also serves every lookup
-- the (workspace_id, aggregate_type, aggregate_id) index served, so it replaces it.
DROP INDEX outbox_events_workspace_id_aggregate_type_aggregate_id_idx;
CREATE INDEX outbox_events_aggregate_sequence_idx ON outbox_events (workspace_id, aggregate_type, aggregate_id, sequence);
-- SQL-only (allow-listed): the comment events of one target in sequence order, by the target their payload names
-- (a comment's events are filed under the comment, its target is in `payload.comment`).
CREATE INDEX outbox_events_comment_target_idx ON outbox_events (workspace_id, (payload #>> '{comment,targetType}'), (payload #>> '{comment,targetId}'), sequence)
  WHERE aggregate_type = 'comment';

-- migrate:down
DROP INDEX outbox_events_comment_target_idx;
DROP INDEX outbox_events_aggregate_sequence_idx;
CREATE INDEX outbox_events_workspace_id_aggregate_type_aggregate_id_idx ON outbox_events (workspace_id, aggregate_type, aggregate_id);
ALTER TABLE outbox_events DROP CONSTRAINT outbox_events_actor_check, DROP COLUMN actor_id, DROP COLUMN actor_type;
DROP INDEX comments_workspace_id_target_type_target_id_id_idx;
CREATE INDEX comments_workspace_id_target_type_target_id_created_at_idx ON comments (workspace_id, target_type, target_id, created_at);
ALTER TABLE comments
  DROP CONSTRAINT comments_one_author_check,
  ADD CONSTRAINT comments_single_author_check CHECK (author_member_id IS NULL OR author_service_account_id IS NULL),
  DROP COLUMN edited_at;
