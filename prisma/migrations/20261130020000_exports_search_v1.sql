-- migrate:up
-- v1 federated search (issue 14): one expression GIN index per searchable table, over the text a person would search
-- (libs/db/src/search.ts holds the same expressions; PostgreSQL uses an expression index only for the identical
-- expression). 'simple' configuration: no stemming, no stop words, so names and addresses match as typed. The first
-- 100,000 characters are indexed (a tsvector holds at most 1 MB; a document's content may hold 1,000,000).
CREATE INDEX projects_search_idx ON projects USING gin ((to_tsvector('simple'::regconfig, left(name || ' ' || coalesce(description, ''), 100000))));
CREATE INDEX tasks_search_idx ON tasks USING gin ((to_tsvector('simple'::regconfig, left(title || ' ' || coalesce(description, ''), 100000))));
CREATE INDEX time_entries_search_idx ON time_entries USING gin ((to_tsvector('simple'::regconfig, left(coalesce(description, ''), 100000))));
CREATE INDEX contacts_search_idx ON contacts USING gin ((to_tsvector('simple'::regconfig, left(display_name || ' ' || coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(email, '') || ' ' || coalesce(notes, ''), 100000))));
CREATE INDEX call_notes_search_idx ON call_notes USING gin ((to_tsvector('simple'::regconfig, left(coalesce(title, '') || ' ' || content, 100000))));
CREATE INDEX contact_groups_search_idx ON contact_groups USING gin ((to_tsvector('simple'::regconfig, left(name, 100000))));
CREATE INDEX lists_search_idx ON lists USING gin ((to_tsvector('simple'::regconfig, left(name, 100000))));
CREATE INDEX services_search_idx ON services USING gin ((to_tsvector('simple'::regconfig, left(name || ' ' || coalesce(description, ''), 100000))));
CREATE INDEX tags_search_idx ON tags USING gin ((to_tsvector('simple'::regconfig, left(name, 100000))));
CREATE INDEX project_templates_search_idx ON project_templates USING gin ((to_tsvector('simple'::regconfig, left(name || ' ' || coalesce(description, ''), 100000))));
CREATE INDEX products_search_idx ON products USING gin ((to_tsvector('simple'::regconfig, left(name || ' ' || coalesce(description, ''), 100000))));
CREATE INDEX product_groups_search_idx ON product_groups USING gin ((to_tsvector('simple'::regconfig, left(name, 100000))));
CREATE INDEX project_statements_search_idx ON project_statements USING gin ((to_tsvector('simple'::regconfig, left(coalesce(title, '') || ' ' || coalesce(description, ''), 100000))));
CREATE INDEX documents_search_idx ON documents USING gin ((to_tsvector('simple'::regconfig, left(title || ' ' || coalesce(content, ''), 100000))));
CREATE INDEX files_search_idx ON files USING gin ((to_tsvector('simple'::regconfig, left(name, 100000))));
CREATE INDEX comments_search_idx ON comments USING gin ((to_tsvector('simple'::regconfig, left(body, 100000))));
CREATE INDEX users_search_idx ON users USING gin ((to_tsvector('simple'::regconfig, left(name || ' ' || email, 100000))));


-- v1 exports (issue 14). The scaffolding becomes the job the worker runs: the format and filter, the creator's
-- authorization as of the request (the job reads with it, so an export never holds what its creator could not read
-- then), progress, the stored result (a storage key of its own: an export is no file of the files family) and why it
-- failed. Resource types are the registry's wire names. No export was ever written (nothing served the table).
ALTER TABLE exports DROP CONSTRAINT exports_workspace_id_file_id_fkey;
ALTER TABLE exports DROP COLUMN file_id, DROP COLUMN error;
ALTER TABLE exports ALTER COLUMN resource_types TYPE text[] USING resource_types::text[];
ALTER TABLE exports ALTER COLUMN requested_by_credential_id SET NOT NULL;
ALTER TABLE exports
  ADD COLUMN format text NOT NULL CONSTRAINT exports_format_check CHECK (format IN ('csv', 'jsonl')),
  ADD COLUMN updated_since timestamptz(3),
  ADD COLUMN auth_snapshot jsonb NOT NULL,
  ADD COLUMN rows_done integer NOT NULL DEFAULT 0,
  ADD COLUMN rows_total integer,
  ADD COLUMN failure_reason text,
  ADD COLUMN storage_key text,
  ADD COLUMN size_bytes bigint;
DROP INDEX exports_workspace_id_created_at_id_idx;
CREATE INDEX exports_workspace_id_requested_by_credential_id_id_idx ON exports (workspace_id, requested_by_credential_id, id);
-- The purge finds succeeded exports past their expiry.
CREATE INDEX exports_status_expires_at_idx ON exports (status, expires_at);

-- migrate:down
DROP INDEX exports_status_expires_at_idx;
DROP INDEX exports_workspace_id_requested_by_credential_id_id_idx;
CREATE INDEX exports_workspace_id_created_at_id_idx ON exports (workspace_id, created_at, id);
ALTER TABLE exports DROP COLUMN format, DROP COLUMN updated_since, DROP COLUMN auth_snapshot, DROP COLUMN rows_done,
  DROP COLUMN rows_total, DROP COLUMN failure_reason, DROP COLUMN storage_key, DROP COLUMN size_bytes;
ALTER TABLE exports ALTER COLUMN requested_by_credential_id DROP NOT NULL;
ALTER TABLE exports ALTER COLUMN resource_types TYPE resource_type[] USING resource_types::resource_type[];
ALTER TABLE exports ADD COLUMN file_id uuid, ADD COLUMN error jsonb;
ALTER TABLE exports ADD CONSTRAINT exports_workspace_id_file_id_fkey
  FOREIGN KEY (workspace_id, file_id) REFERENCES files (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
DROP INDEX projects_search_idx;
DROP INDEX tasks_search_idx;
DROP INDEX time_entries_search_idx;
DROP INDEX contacts_search_idx;
DROP INDEX call_notes_search_idx;
DROP INDEX contact_groups_search_idx;
DROP INDEX lists_search_idx;
DROP INDEX services_search_idx;
DROP INDEX tags_search_idx;
DROP INDEX project_templates_search_idx;
DROP INDEX products_search_idx;
DROP INDEX product_groups_search_idx;
DROP INDEX project_statements_search_idx;
DROP INDEX documents_search_idx;
DROP INDEX files_search_idx;
DROP INDEX comments_search_idx;
DROP INDEX users_search_idx;
