-- What each purchase delivered: a basket order adds capacity to groups and the licenses are
-- generated from a group later, so a refund needs to know which capacity and which licenses the
-- order paid for (docs/adr/purchase-capacity-and-partial-refunds.md).
--
-- One row per purchase and group: `count` units of the purchase's capacity are in that group (what
-- it delivered there; units split off to a group key, or moved by an upgrade, are counted in the
-- group they went to). A license generated from the group names the row whose capacity it used
-- (licenses.purchase_capacity_id); what is left of the row is `count` less its live licenses.
CREATE TABLE purchase_capacity (
  id                    bigserial PRIMARY KEY,
  transaction_id        bigint NOT NULL REFERENCES transactions(id),
  client_id             bigint NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
  group_id              bigint NOT NULL REFERENCES license_groups(id) ON DELETE CASCADE,
  count                 integer NOT NULL CHECK (count >= 0),
  -- a refund or a lost dispute of the whole payment took the ungenerated rest out of the group: how
  -- many units, under which credit note (a dispute won gives them back and clears both)
  taken                 integer NOT NULL DEFAULT 0 CHECK (taken >= 0),
  taken_by_credit_note  bigint REFERENCES credit_notes(id),
  created_at            timestamptz NOT NULL DEFAULT now(),
  UNIQUE (transaction_id, group_id)
);
CREATE INDEX purchase_capacity_group_idx ON purchase_capacity (group_id, id);
CREATE INDEX purchase_capacity_credit_note_idx ON purchase_capacity (taken_by_credit_note) WHERE taken_by_credit_note IS NOT NULL;

-- the purchase whose capacity a license used; NULL for licenses made before this table, by staff,
-- as a trial, or from capacity that names no purchase
ALTER TABLE licenses ADD COLUMN purchase_capacity_id bigint REFERENCES purchase_capacity(id);
CREATE INDEX licenses_purchase_capacity_idx ON licenses (purchase_capacity_id) WHERE purchase_capacity_id IS NOT NULL;

-- the renewals of a license suspended because its payment was taken back end with it (its card is
-- not charged again for it); a dispute won starts the ones its credit note ended again
ALTER TABLE subscriptions ADD COLUMN ended_by_credit_note bigint REFERENCES credit_notes(id);
