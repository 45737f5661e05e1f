-- migrate:up
-- v1 project statements: the registry's ProjectStatement has no title (v0 journal entries carried one in a
-- column nobody reads any more), so it becomes optional instead of being filled with a made-up value.
ALTER TABLE project_statements ALTER COLUMN title DROP NOT NULL;
-- Every value the registry accepts fits (Money: 15 integer and 6 fraction digits; quantity: 12 and 4), as for
-- products; purchasePrice carries its own currency (the acquisition cost may be in another currency).
ALTER TABLE project_statements ALTER COLUMN quantity TYPE numeric(16, 4);
ALTER TABLE project_statements ALTER COLUMN amount TYPE numeric(21, 6);
ALTER TABLE project_statements ALTER COLUMN purchase_price TYPE numeric(21, 6);
ALTER TABLE project_statements ADD COLUMN purchase_currency char(3);
ALTER TABLE project_statements ADD CONSTRAINT project_statements_purchase_currency_check CHECK (purchase_price IS NULL OR purchase_currency IS NOT NULL);

-- v1 services: the billing rates of a service (replaceServiceBillingRates replaces the whole set; its
-- compare-and-set version is the service's revision). member_id null is the rate for everyone without a
-- member-specific one. member_id has no foreign key: members are never deleted (removal only marks them) and the
-- domain checks the id names a member of the workspace when the set is written.
CREATE TABLE service_billing_rates (
  workspace_id uuid NOT NULL,
  id           uuid NOT NULL DEFAULT uuidv7(),
  service_id   uuid NOT NULL,
  member_id    uuid,
  valid_from   date NOT NULL,
  rate         numeric(14, 4) NOT NULL,
  currency     char(3) NOT NULL,
  created_at   timestamptz(3) NOT NULL DEFAULT now(),
  CONSTRAINT service_billing_rates_pkey PRIMARY KEY (workspace_id, id),
  CONSTRAINT service_billing_rates_rate_check CHECK (rate >= 0)
);
CREATE INDEX service_billing_rates_workspace_id_service_id_idx ON service_billing_rates (workspace_id, service_id);
ALTER TABLE service_billing_rates ADD CONSTRAINT service_billing_rates_workspace_id_service_id_fkey
  FOREIGN KEY (workspace_id, service_id) REFERENCES services (workspace_id, id) ON DELETE RESTRICT ON UPDATE RESTRICT;

-- migrate:down
DROP TABLE service_billing_rates;
ALTER TABLE project_statements DROP CONSTRAINT project_statements_purchase_currency_check;
ALTER TABLE project_statements DROP COLUMN purchase_currency;
ALTER TABLE project_statements ALTER COLUMN purchase_price TYPE numeric(14, 2);
ALTER TABLE project_statements ALTER COLUMN amount TYPE numeric(14, 2);
ALTER TABLE project_statements ALTER COLUMN quantity TYPE numeric(14, 4);
UPDATE project_statements SET title = '' WHERE title IS NULL;
ALTER TABLE project_statements ALTER COLUMN title SET NOT NULL;
