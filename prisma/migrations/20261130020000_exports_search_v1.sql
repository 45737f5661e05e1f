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

-- migrate:down
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
