-- migrate:up
-- v1 lists (issue 6): the registry's List carries an optional colour (#rrggbb), like tags.
ALTER TABLE lists ADD COLUMN color text;

-- migrate:down
ALTER TABLE lists DROP COLUMN color;
