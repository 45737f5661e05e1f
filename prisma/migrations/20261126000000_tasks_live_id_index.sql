-- migrate:up
-- v0 pages by number (issue 11): "the row at position k of the unarchived tasks in id order" is answered by an
-- index-only scan of this index (archived_at is in the index, so no row before the page is read from the heap).
CREATE INDEX tasks_workspace_id_id_archived_at_idx ON tasks (workspace_id, id, archived_at);

-- migrate:down
DROP INDEX tasks_workspace_id_id_archived_at_idx;
