-- The living catalogue: when each service was approved, and a version of what the public sees.
--
-- * approved_at: the service's last approval (the approve route sets it). Alert digests list the
--   services approved since a subscription's last digest (src/alerts/digest.ts); before this
--   column they read it from the audit log, which is backfilled here.
ALTER TABLE services ADD COLUMN approved_at timestamptz;
--> statement-breakpoint
UPDATE services s SET approved_at = a.at
  FROM (SELECT target_id, max(created_at) AS at FROM audit_log
        WHERE action = 'service.approve' GROUP BY target_id) a
  WHERE a.target_id = s.id::text;
--> statement-breakpoint
CREATE INDEX services_approved_at_idx ON services (approved_at) WHERE approved_at IS NOT NULL;
--> statement-breakpoint
-- Vacancies opened since a time (the vacancy digests).
CREATE INDEX vacancies_created_at_idx ON vacancies (created_at);
--> statement-breakpoint
-- Unconfirmed alert subscriptions by age: the digest job deletes them after 7 days.
CREATE INDEX alert_subscriptions_unconfirmed_idx ON alert_subscriptions (created_at)
  WHERE confirmed_at IS NULL;
--> statement-breakpoint
-- * catalogue_version: a number that moves on with every committed change to what the open
--   data exports (src/openData/services.ts): a publicly visible service added, removed, hidden or
--   shown (approval, decline, lapse of re-confirmation, deletion), or one of its exported fields
--   changed. The ETag of the open-data files is built from it, so a download's first byte never
--   waits for a scan of the catalogue. The version is catalogue_version.version plus the rows of
--   catalogue_changes, read in one statement: each transaction that changes the export adds one
--   row (its transaction id; a transaction-local setting remembers it did), so writers never wait
--   on each other, a rolled-back write adds nothing, and the count only grows as commits become
--   visible, whatever their order. Now and then a writer folds the rows into the number
--   (deleting them and adding their count in one transaction, which leaves the sum as it was).
CREATE TABLE catalogue_version (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  version bigint NOT NULL
);
--> statement-breakpoint
INSERT INTO catalogue_version (id, version) VALUES (true, 1);
--> statement-breakpoint
CREATE TABLE catalogue_changes (tx bigint PRIMARY KEY);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION poruch_catalogue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  me bigint := txid_current();
BEGIN
  IF current_setting('poruch.catalogue_changed', true) IS DISTINCT FROM me::text THEN
    INSERT INTO catalogue_changes (tx) VALUES (me) ON CONFLICT DO NOTHING;
    PERFORM set_config('poruch.catalogue_changed', me::text, true);
    -- Fold the rows of committed transactions into the number, one writer at a time.
    IF (SELECT count(*) FROM catalogue_changes) > 1000
       AND pg_try_advisory_xact_lock(hashtext('poruch.catalogue_changes')) THEN
      WITH gone AS (DELETE FROM catalogue_changes c WHERE c.tx <> me RETURNING 1)
      UPDATE catalogue_version SET version = version + (SELECT count(*) FROM gone);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Visible: the rule of src/search/visibility.ts, publiclyVisible(). The exported fields: those
-- of the open data's FIELDS (src/openData/services.ts).
CREATE TRIGGER services_catalogue_insert AFTER INSERT ON services FOR EACH ROW
  WHEN (NEW.status = 'approved' AND NEW.confirmation <> 'lapsed')
  EXECUTE FUNCTION poruch_catalogue_changed();
--> statement-breakpoint
CREATE TRIGGER services_catalogue_delete AFTER DELETE ON services FOR EACH ROW
  WHEN (OLD.status = 'approved' AND OLD.confirmation <> 'lapsed')
  EXECUTE FUNCTION poruch_catalogue_changed();
--> statement-breakpoint
CREATE TRIGGER services_catalogue_update AFTER UPDATE ON services FOR EACH ROW
  WHEN ((OLD.status = 'approved' AND OLD.confirmation <> 'lapsed')
          IS DISTINCT FROM (NEW.status = 'approved' AND NEW.confirmation <> 'lapsed')
        OR (NEW.status = 'approved' AND NEW.confirmation <> 'lapsed'
          AND (OLD.id, OLD.name, OLD.category, OLD.country_code, OLD.address_details->>'city',
               OLD.address, OLD.show_on_map, OLD.lat, OLD.lng, OLD.is_online, OLD.website,
               OLD.phone, OLD.description_ua, OLD.description_other, OLD.is_partner,
               OLD.have_vacancy, OLD.created_at, OLD.updated_at)
            IS DISTINCT FROM
              (NEW.id, NEW.name, NEW.category, NEW.country_code, NEW.address_details->>'city',
               NEW.address, NEW.show_on_map, NEW.lat, NEW.lng, NEW.is_online, NEW.website,
               NEW.phone, NEW.description_ua, NEW.description_other, NEW.is_partner,
               NEW.have_vacancy, NEW.created_at, NEW.updated_at)))
  EXECUTE FUNCTION poruch_catalogue_changed();
--> statement-breakpoint
CREATE TRIGGER services_catalogue_truncate AFTER TRUNCATE ON services
  FOR EACH STATEMENT EXECUTE FUNCTION poruch_catalogue_changed();
