-- Issued invoices are records: what an invoice prints is copied here when its number is given, so a
-- later change of the buyer's profile or company, or of the configured seller, never changes a
-- document already issued. The seller as configured is kept in invoice_seller (one row, written at
-- each start); the copy is made in SQL, in the transaction that marks the payment paid, so no path
-- that settles a payment can forget it.
CREATE TABLE invoice_seller (
  id          boolean PRIMARY KEY DEFAULT true CHECK (id),
  seller      jsonb NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE invoice_records (
  transaction_id  bigint PRIMARY KEY REFERENCES transactions(id),
  number          bigint NOT NULL UNIQUE,
  issued_at       timestamptz NOT NULL,
  seller          jsonb,
  buyer           jsonb NOT NULL,
  lines           jsonb NOT NULL,
  total_cents     bigint NOT NULL,
  payment_method  text
);

-- invoices issued before this migration: frozen as they print today
INSERT INTO invoice_records (transaction_id, number, issued_at, seller, buyer, lines, total_cents, payment_method)
SELECT t.id, t.invoice_number, COALESCE(t.paid_at, t.created_at), NULL,
       jsonb_build_object(
         'name', btrim(c.name || ' ' || c.last_name),
         'email', c.email,
         'company', CASE WHEN COALESCE((c.options->>'corporate_member')::boolean, false) THEN c.company END),
       t.lines, t.amount_cents, t.payment_method
  FROM transactions t JOIN clients c ON c.id = t.client_id
 WHERE t.invoice_number IS NOT NULL;
