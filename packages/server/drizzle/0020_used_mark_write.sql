-- A used mark ("I have used it") changes one number of one service: it is the most frequent
-- write and must stay cheap.
--
-- * poruch_mark_used records the mark and adds it to the count in one statement. Its UPDATE runs
--   with the transaction-local setting `poruch.used_mark` on, and the statement triggers of
--   services that work on anything but the used count (the search words, the word counts, the
--   change notification that compares whole rows) do not fire for it. In their place
--   services_used_count_change moves the search generation on and notifies the new counts
--   (`{"u": {id: count}}`, the payload migration 0018 describes). The setting is on only for that
--   one UPDATE.
-- * services keeps a fifth of each page free, so the new version of a row fits on its page and
--   the count's UPDATE writes no index entry (a heap-only tuple): the row carries GIN indexes of
--   its documents. Pages written before this migration get the room as their rows move.
CREATE FUNCTION poruch_in_used_mark() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('poruch.used_mark', true) = 'on', false)
$$;
--> statement-breakpoint
-- The mark of `browser` on `service` (which the caller found publicly visible): `counted` when it
-- is new, and the count after it. `n` is NULL when the service is gone.
CREATE FUNCTION poruch_mark_used(service uuid, browser text, OUT n integer, OUT counted boolean)
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO used_marks (service_id, browser_id) VALUES (service, browser) ON CONFLICT DO NOTHING;
  counted := FOUND;
  IF counted THEN
    PERFORM set_config('poruch.used_mark', 'on', true);
    UPDATE services s SET used_count = s.used_count + 1 WHERE s.id = service
      RETURNING s.used_count INTO n;
    PERFORM set_config('poruch.used_mark', '', true);
  ELSE
    SELECT s.used_count INTO n FROM services s WHERE s.id = service;
  END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION poruch_notify_used_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('poruch_search_generation');
  PERFORM poruch_notify_search(coalesce(
    (SELECT jsonb_build_object('u', jsonb_object_agg(id::text, used_count))
       FROM new_rows WHERE status = 'approved' HAVING count(*) > 0),
    '{}'::jsonb));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER services_used_count_change AFTER UPDATE ON services
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  WHEN (poruch_in_used_mark()) EXECUTE FUNCTION poruch_notify_used_counts();
--> statement-breakpoint
DROP TRIGGER services_search_change_update ON services;
--> statement-breakpoint
CREATE TRIGGER services_search_change_update AFTER UPDATE ON services
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  WHEN (NOT poruch_in_used_mark()) EXECUTE FUNCTION poruch_notify_search_change();
--> statement-breakpoint
DROP TRIGGER services_search_words_update ON services;
--> statement-breakpoint
CREATE TRIGGER services_search_words_update AFTER UPDATE ON services
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  WHEN (NOT poruch_in_used_mark()) EXECUTE FUNCTION poruch_collect_search_words();
--> statement-breakpoint
DROP TRIGGER services_word_counts_update ON services;
--> statement-breakpoint
CREATE TRIGGER services_word_counts_update AFTER UPDATE ON services
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  WHEN (NOT poruch_in_used_mark()) EXECUTE FUNCTION poruch_count_service_words();
--> statement-breakpoint
ALTER TABLE services SET (fillfactor = 80);
