-- migrate:up
-- Search matches a user's e-mail address only for a caller who may read it (members:pii:read); everyone else searches
-- the name alone (issue 24: a match on the address would reveal it). That document needs its own expression index
-- (libs/db/src/search.ts holds the same expression; PostgreSQL uses an expression index only for the identical one).
CREATE INDEX users_name_search_idx ON users USING gin ((to_tsvector('simple'::regconfig, left(name, 100000))));

-- migrate:down
DROP INDEX users_name_search_idx;
