-- Writes retire only what they change (src/search/cache.ts): the notification of a write to
-- services or vacancies says what the write changed, so each instance retires only the cached
-- pages and profiles that could show it. The payload, JSON (at most a few kilobytes):
--
-- * `s`: ids of services that are or were approved and changed in anything but the used count,
--   `c`: their countries (old and new);
-- * `v`: ids of the services of vacancies that changed, of approved services, with `c` their
--   countries;
-- * `u`: used counts that changed, by service id (the only change of those rows: a used mark);
-- * `w`: new words in search_words (a text query may find new corrections);
-- * `{}`: nothing public changed (a service that is not approved, before or after, and its
--   vacancies).
--
-- An empty payload (category terms, truncation, bulk loads, statements of more than 100 rows, a
-- payload that would not fit) retires everything, as every notification did before. Every
-- statement still moves poruch_search_generation on: a server that is not listening reads it.
CREATE OR REPLACE FUNCTION poruch_notify_search(payload jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  text_payload text := coalesce(payload::text, '');
BEGIN
  IF length(text_payload) > 7000 THEN
    text_payload := '';
  END IF;
  PERFORM pg_notify('poruch_search', text_payload);
END $$;
--> statement-breakpoint
-- One function for both tables, reading the rows as JSON: services carry `id`, `country_code` and
-- `status`; vacancies their service's `service_id`, `service_country` and `service_status`.
CREATE OR REPLACE FUNCTION poruch_notify_search_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  is_services boolean := TG_TABLE_NAME = 'services';
  -- The payload's key of the changed rows: services, or the services of vacancies.
  key text := CASE WHEN is_services THEN 's' ELSE 'v' END;
  id_of text := CASE WHEN is_services THEN 'id' ELSE 'service_id' END;
  country_of text := CASE WHEN is_services THEN 'country_code' ELSE 'service_country' END;
  status_of text := CASE WHEN is_services THEN 'status' ELSE 'service_status' END;
  large boolean;
  changed jsonb;
  used jsonb;
BEGIN
  PERFORM nextval('poruch_search_generation');
  -- A bulk load or a large statement: everything. (Each count in its own branch: a transition
  -- table the event has not is not there, and PL/pgSQL plans an expression only when it runs.)
  IF poruch_search_bulk() THEN
    large := true;
  ELSIF TG_OP = 'DELETE' THEN
    large := (SELECT count(*) FROM old_rows) > 100;
  ELSE
    large := (SELECT count(*) FROM new_rows) > 100;
  END IF;
  IF large THEN
    PERFORM poruch_notify_search(NULL);
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    SELECT jsonb_build_object(key, jsonb_agg(DISTINCT r->>id_of), 'c', jsonb_agg(DISTINCT r->>country_of))
      INTO changed FROM (SELECT to_jsonb(n) AS r FROM new_rows n) x
     WHERE r->>status_of = 'approved';
  ELSIF TG_OP = 'DELETE' THEN
    SELECT jsonb_build_object(key, jsonb_agg(DISTINCT r->>id_of), 'c', jsonb_agg(DISTINCT r->>country_of))
      INTO changed FROM (SELECT to_jsonb(o) AS r FROM old_rows o) x
     WHERE r->>status_of = 'approved';
  ELSE
    -- Services whose only change is the used count (a used mark): their new counts. (Vacancies
    -- have no used count: never any.)
    SELECT jsonb_object_agg(n.r->>'id', (n.r->>'used_count')::int) INTO used
      FROM (SELECT to_jsonb(n) AS r FROM new_rows n) n
      JOIN (SELECT to_jsonb(o) AS r FROM old_rows o) o ON o.r->'id' = n.r->'id'
     WHERE n.r->>status_of = 'approved'
       AND n.r->'used_count' IS DISTINCT FROM o.r->'used_count'
       AND n.r - 'used_count' = o.r - 'used_count';
    -- Rows of approved services (before or after) that changed in anything else.
    SELECT jsonb_build_object(key, jsonb_agg(DISTINCT x.r->>id_of), 'c', jsonb_agg(DISTINCT x.r->>country_of))
      INTO changed
      FROM (SELECT to_jsonb(n) AS r FROM new_rows n) n
      JOIN (SELECT to_jsonb(o) AS r FROM old_rows o) o ON o.r->'id' = n.r->'id',
           LATERAL (VALUES (n.r), (o.r)) AS x(r)
     WHERE (n.r->>status_of = 'approved' OR o.r->>status_of = 'approved')
       AND n.r - 'used_count' <> o.r - 'used_count';
  END IF;
  IF changed->key = 'null'::jsonb THEN
    changed := '{}'::jsonb;
  END IF;
  IF used IS NOT NULL THEN
    changed := changed || jsonb_build_object('u', used);
  END IF;
  PERFORM poruch_notify_search(changed);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- New words: a text query may find a correction it did not before, in any country. A row
-- trigger: it fires for the words inserted, not for those an upsert updates (their counts matter
-- only to pages without filters, which the service's own change retires); the identical
-- notifications of one transaction are folded into one.
CREATE OR REPLACE FUNCTION poruch_notify_search_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM poruch_notify_search('{"w":true}'::jsonb);
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER services_search_generation ON services;
--> statement-breakpoint
DROP TRIGGER vacancies_search_generation ON vacancies;
--> statement-breakpoint
CREATE TRIGGER services_search_change_insert AFTER INSERT ON services
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION poruch_notify_search_change();
--> statement-breakpoint
CREATE TRIGGER services_search_change_update AFTER UPDATE ON services
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION poruch_notify_search_change();
--> statement-breakpoint
CREATE TRIGGER services_search_change_delete AFTER DELETE ON services
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION poruch_notify_search_change();
--> statement-breakpoint
CREATE TRIGGER services_search_change_truncate AFTER TRUNCATE ON services
  FOR EACH STATEMENT EXECUTE FUNCTION poruch_bump_search_generation();
--> statement-breakpoint
CREATE TRIGGER vacancies_search_change_insert AFTER INSERT ON vacancies
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION poruch_notify_search_change();
--> statement-breakpoint
CREATE TRIGGER vacancies_search_change_update AFTER UPDATE ON vacancies
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION poruch_notify_search_change();
--> statement-breakpoint
CREATE TRIGGER vacancies_search_change_delete AFTER DELETE ON vacancies
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION poruch_notify_search_change();
--> statement-breakpoint
CREATE TRIGGER vacancies_search_change_truncate AFTER TRUNCATE ON vacancies
  FOR EACH STATEMENT EXECUTE FUNCTION poruch_bump_search_generation();
--> statement-breakpoint
CREATE TRIGGER search_words_change_insert AFTER INSERT ON search_words
  FOR EACH ROW EXECUTE FUNCTION poruch_notify_search_words();
--> statement-breakpoint
CREATE TRIGGER search_words_change_delete AFTER DELETE OR TRUNCATE ON search_words
  FOR EACH STATEMENT EXECUTE FUNCTION poruch_bump_search_generation();
