-- migrate:up
-- v1 documents (issue 13): a document has a format and may be attached to a target (a contact, project or task of
-- its workspace, named by type and id like a comment's target), replacing the initial project-only link. The
-- target has no foreign key (one column names rows of three tables); the service checks it when a document is
-- created, and nothing a target can be is ever deleted (archive keeps the row), so the reference stays whole.
-- size_bytes is generated from the content: octet_length counts the bytes of the database encoding, which is
-- UTF8, so it is the content's UTF-8 size and can never disagree with it.
CREATE TYPE document_format AS ENUM ('markdown', 'plain');
CREATE TYPE document_target_type AS ENUM ('contact', 'project', 'task');
ALTER TABLE documents
  ADD COLUMN format document_format NOT NULL DEFAULT 'plain',
  ADD COLUMN size_bytes integer NOT NULL GENERATED ALWAYS AS (octet_length(content)) STORED,
  ADD COLUMN target_type document_target_type,
  ADD COLUMN target_id uuid,
  ADD CONSTRAINT documents_target_check CHECK ((target_type IS NULL) = (target_id IS NULL));
UPDATE documents SET target_type = 'project', target_id = project_id WHERE project_id IS NOT NULL;
ALTER TABLE documents DROP CONSTRAINT documents_workspace_id_project_id_fkey;
DROP INDEX documents_workspace_id_project_id_idx;
ALTER TABLE documents DROP COLUMN project_id;
CREATE INDEX documents_workspace_id_target_id_idx ON documents (workspace_id, target_id);

-- migrate:down
ALTER TABLE documents ADD COLUMN project_id uuid;
UPDATE documents SET project_id = target_id WHERE target_type = 'project';
DROP INDEX documents_workspace_id_target_id_idx;
ALTER TABLE documents
  DROP CONSTRAINT documents_target_check,
  DROP COLUMN target_id,
  DROP COLUMN target_type,
  DROP COLUMN size_bytes,
  DROP COLUMN format;
DROP TYPE document_target_type;
DROP TYPE document_format;
CREATE INDEX documents_workspace_id_project_id_idx ON documents (workspace_id, project_id);
ALTER TABLE documents ADD CONSTRAINT documents_workspace_id_project_id_fkey
  FOREIGN KEY (workspace_id, project_id) REFERENCES projects (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;
