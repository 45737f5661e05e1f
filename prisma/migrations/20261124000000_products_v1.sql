-- migrate:up
-- v1 products: prices are the registry's Money (up to 15 integer and 6 fraction digits, stored exactly), and the
-- purchase price carries its own currency (the initial single `currency` column stays the sales price's).
ALTER TABLE products ALTER COLUMN sales_price TYPE numeric(21, 6);
ALTER TABLE products ALTER COLUMN purchase_price TYPE numeric(21, 6);
ALTER TABLE products ADD COLUMN purchase_currency char(3);

-- migrate:down
ALTER TABLE products DROP COLUMN purchase_currency;
ALTER TABLE products ALTER COLUMN purchase_price TYPE numeric(14, 2);
ALTER TABLE products ALTER COLUMN sales_price TYPE numeric(14, 2);
