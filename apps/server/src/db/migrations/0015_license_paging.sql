-- Issue 15: the license list's version per client, for its strong ETag, and the indexes of its pages.
--
-- A client's list version changes in the transaction of every change to what the list shows: the
-- client's licenses, groups (a license shows its group's title), devices (its activations),
-- subscriptions and payment methods (its renewal), and the price table (its renewal price; client 0
-- is the price table's version). Triggers do it, so no write path can forget.
--
-- The bump is a deferred constraint trigger on a table of its own, not a column of clients: a write
-- path that locks a license before anything else (the device API, the renewals) would otherwise
-- wait for the client row while holding the license, and deadlock a customer's call that holds the
-- client row (lockClient) and waits for that license. Deferred to the commit, the version row is
-- the last lock a transaction takes, and one bump a transaction is enough.
CREATE TABLE license_list_versions (
  client_id  bigint PRIMARY KEY,
  version    bigint NOT NULL
);

CREATE FUNCTION bump_license_list_version(client bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF client IS NULL OR current_setting('portal.license_list_bumped_' || client, true) = '1' THEN
    RETURN;
  END IF;
  INSERT INTO license_list_versions (client_id, version) VALUES (client, 1)
    ON CONFLICT (client_id) DO UPDATE SET version = license_list_versions.version + 1;
  PERFORM set_config('portal.license_list_bumped_' || client, '1', true);
END
$$;

CREATE FUNCTION license_list_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'prices' THEN
    PERFORM bump_license_list_version(0);
  ELSIF TG_TABLE_NAME = 'devices' THEN
    IF TG_OP <> 'INSERT' THEN
      PERFORM bump_license_list_version((SELECT client_id FROM licenses WHERE id = OLD.license_id));
    END IF;
    IF TG_OP <> 'DELETE' THEN
      PERFORM bump_license_list_version((SELECT client_id FROM licenses WHERE id = NEW.license_id));
    END IF;
  ELSE
    IF TG_OP <> 'INSERT' THEN
      PERFORM bump_license_list_version(OLD.client_id);
    END IF;
    IF TG_OP <> 'DELETE' THEN
      PERFORM bump_license_list_version(NEW.client_id);
    END IF;
  END IF;
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER licenses_list_version AFTER INSERT OR UPDATE OR DELETE ON licenses
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION license_list_changed();
CREATE CONSTRAINT TRIGGER license_groups_list_version AFTER INSERT OR UPDATE OR DELETE ON license_groups
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION license_list_changed();
CREATE CONSTRAINT TRIGGER devices_list_version AFTER INSERT OR UPDATE OR DELETE ON devices
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION license_list_changed();
CREATE CONSTRAINT TRIGGER subscriptions_list_version AFTER INSERT OR UPDATE OR DELETE ON subscriptions
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION license_list_changed();
CREATE CONSTRAINT TRIGGER payment_methods_list_version AFTER INSERT OR UPDATE OR DELETE ON payment_methods
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION license_list_changed();
CREATE CONSTRAINT TRIGGER prices_list_version AFTER INSERT OR UPDATE OR DELETE ON prices
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION license_list_changed();

-- A product filter's page walks the client's licenses of those products newest first.
CREATE INDEX licenses_client_product_idx ON licenses (client_id, product, id DESC) WHERE revoked_at IS NULL;
