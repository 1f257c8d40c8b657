-- Yearly re-confirmation by owners (src/reconfirm/, docs/product.md § Re-confirmation).
--
-- * confirmed_at: the service's approval, its owner's last edit or its last confirmation; null
--   until the service is first approved. Existing approved services start from their last update.
-- * reconfirm_mailed_at, reconfirm_reminded_at: the cycle's mail and reminder, claimed by a
--   conditional UPDATE … RETURNING so each goes out once, whatever the number of instances.
-- * confirmation: 'current', 'overdue' (30 days after the mail, still unconfirmed: labelled,
--   ranked below) or 'lapsed' (90 days after the mail: out of every public view). The periodic
--   job moves it on (a write, so the caches of search, map and profiles retire); confirming,
--   an owner's edit or an approval sets it back to 'current'.
ALTER TABLE services ADD COLUMN confirmed_at timestamptz;
--> statement-breakpoint
ALTER TABLE services ADD COLUMN reconfirm_mailed_at timestamptz;
--> statement-breakpoint
ALTER TABLE services ADD COLUMN reconfirm_reminded_at timestamptz;
--> statement-breakpoint
ALTER TABLE services ADD COLUMN confirmation text NOT NULL DEFAULT 'current';
--> statement-breakpoint
UPDATE services SET confirmed_at = updated_at WHERE status = 'approved';
--> statement-breakpoint
-- The job's scan: approved services by confirmation time.
CREATE INDEX services_confirmed_at_idx ON services (confirmed_at) WHERE status = 'approved';
--> statement-breakpoint
-- The few lapsed services, which the public vacancy listings leave out.
CREATE INDEX services_lapsed_idx ON services (id) WHERE confirmation = 'lapsed';
--> statement-breakpoint
-- Search lists overdue services after the others, newest first within each group.
CREATE INDEX services_listed_created_idx ON services ((confirmation = 'overdue'), created_at DESC, id)
  WHERE status = 'approved';
--> statement-breakpoint
-- The first matches of a text query (migration 0010) among the publicly visible services: the
-- rule of src/search/visibility.ts, publiclyVisible().
CREATE OR REPLACE FUNCTION poruch_first_service_matches(q tsquery, n int)
RETURNS TABLE (id uuid, doc tsvector, created_at timestamptz, lat float8, lng float8)
LANGUAGE sql STABLE SET enable_seqscan = off AS $$
  SELECT s.id, s.search_doc, s.created_at, s.lat, s.lng FROM services s
   WHERE s.search_doc @@ q AND s.status = 'approved' AND s.confirmation <> 'lapsed'
   LIMIT n
$$;
