-- Search speed at 100k services / 300k vacancies (docs/performance.md, "## Search").
--
-- * services.name_doc, vacancies.name_doc: tsvectors of the name's search key alone, GIN-indexed.
--   The query ranks a bounded set of candidates (name matches first, then any match) instead of
--   every match, and the name matches are found without reading the descriptions.
-- * vacancies.service_status, service_country, service_category: the service's, copied by
--   triggers, so the vacancy filters need no join (a service's change is copied to its vacancies).
-- * Bulk mode: with `SET poruch.search_bulk = 'on'` (or set_config(…, true) in a transaction) the
--   row triggers of search do nothing; the loader then calls poruch_search_refresh(), which
--   writes every document and copied column set-based and rebuilds search_words. Normal writes
--   stay trigger-maintained.

CREATE OR REPLACE FUNCTION poruch_search_bulk() RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('poruch.search_bulk', true), '') = 'on'
$$;
--> statement-breakpoint
ALTER TABLE services ADD COLUMN name_doc tsvector NOT NULL DEFAULT ''::tsvector;
--> statement-breakpoint
ALTER TABLE vacancies ADD COLUMN name_doc tsvector NOT NULL DEFAULT ''::tsvector;
--> statement-breakpoint
ALTER TABLE vacancies ADD COLUMN service_status text;
--> statement-breakpoint
ALTER TABLE vacancies ADD COLUMN service_country text;
--> statement-breakpoint
ALTER TABLE vacancies ADD COLUMN service_category text;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION poruch_services_search_doc() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF poruch_search_bulk() THEN RETURN NEW; END IF;
  NEW.search_doc := poruch_service_doc(NEW.name, NEW.description_ua, NEW.description_other,
    NEW.address, NEW.address_details ->> 'city', NEW.original_place, NEW.category);
  NEW.name_doc := to_tsvector('simple', poruch_search_key(NEW.name));
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION poruch_vacancies_search_doc() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  s record;
BEGIN
  IF poruch_search_bulk() THEN RETURN NEW; END IF;
  SELECT name, status, country_code, category INTO s FROM services WHERE id = NEW.service_id;
  NEW.search_doc := poruch_vacancy_doc(NEW.name, NEW.requirements, NEW.description, s.name);
  NEW.name_doc := to_tsvector('simple', poruch_search_key(NEW.name));
  NEW.service_status := s.status;
  NEW.service_country := s.country_code;
  NEW.service_category := s.category;
  RETURN NEW;
END $$;
--> statement-breakpoint
-- A service's name, status, country or category, copied to its vacancies.
CREATE OR REPLACE FUNCTION poruch_services_copy_to_vacancies() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF poruch_search_bulk() THEN RETURN NULL; END IF;
  UPDATE vacancies v
     SET service_status = NEW.status,
         service_country = NEW.country_code,
         service_category = NEW.category,
         search_doc = CASE WHEN OLD.name IS DISTINCT FROM NEW.name
           THEN poruch_vacancy_doc(v.name, v.requirements, v.description, NEW.name)
           ELSE v.search_doc END
   WHERE v.service_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION poruch_collect_search_words() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF poruch_search_bulk() THEN RETURN NULL; END IF;
  INSERT INTO search_words (word)
  SELECT DISTINCT w FROM new_rows, unnest(tsvector_to_array(new_rows.search_doc)) AS w
   WHERE length(w) BETWEEN 3 AND 40 AND w !~ '^[0-9]+$'
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER services_search_rename ON services;
--> statement-breakpoint
DROP FUNCTION poruch_services_rename_vacancies();
--> statement-breakpoint
CREATE TRIGGER services_search_copy AFTER UPDATE OF name, status, country_code, category ON services
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.status IS DISTINCT FROM NEW.status
    OR OLD.country_code IS DISTINCT FROM NEW.country_code OR OLD.category IS DISTINCT FROM NEW.category)
  EXECUTE FUNCTION poruch_services_copy_to_vacancies();
--> statement-breakpoint
-- Every document and copied column, set-based (after a bulk load, or to repair), then the words.
-- Computing the search key is the cost (about 0.2 ms per text on PGlite), so each distinct
-- whitespace-separated chunk is keyed once: the key of a text is the keys of its chunks joined
-- by spaces (the key never joins or splits across whitespace), so the documents are identical
-- to the triggers' (a test checks it).
CREATE OR REPLACE FUNCTION poruch_search_refresh() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('poruch.search_bulk', 'on', true);
  DROP TABLE IF EXISTS pg_temp.poruch_chunk_keys;
  CREATE TEMP TABLE poruch_chunk_keys ON COMMIT DROP AS
  SELECT c AS chunk, poruch_search_key(c) AS key FROM (
    SELECT regexp_split_to_table(concat_ws(' ', s.name, s.description_ua, s.description_other,
             s.address, s.address_details ->> 'city', s.original_place, t.terms), '\s+') AS c
      FROM services s LEFT JOIN search_category_terms t ON t.category = s.category
    UNION
    SELECT regexp_split_to_table(concat_ws(' ', v.name, v.requirements, v.description), '\s+')
      FROM vacancies v
  ) chunks WHERE c <> '';
  CREATE UNIQUE INDEX ON poruch_chunk_keys (chunk);
  ANALYZE poruch_chunk_keys;
  UPDATE services s SET
    search_doc = setweight(to_tsvector('simple', d.a), 'A')
      || setweight(to_tsvector('simple', d.b), 'B')
      || setweight(to_tsvector('simple', d.c), 'C'),
    name_doc = to_tsvector('simple', d.a)
  FROM (
    SELECT s2.id,
      (SELECT coalesce(string_agg(k.key, ' ' ORDER BY p.n), '')
         FROM regexp_split_to_table(s2.name, '\s+') WITH ORDINALITY p(c, n)
         JOIN poruch_chunk_keys k ON k.chunk = p.c) AS a,
      (SELECT coalesce(string_agg(k.key, ' ' ORDER BY p.n), '')
         FROM regexp_split_to_table(concat_ws(' ', s2.description_ua, s2.description_other), '\s+')
              WITH ORDINALITY p(c, n)
         JOIN poruch_chunk_keys k ON k.chunk = p.c) AS b,
      (SELECT coalesce(string_agg(k.key, ' ' ORDER BY p.n), '')
         FROM regexp_split_to_table(concat_ws(' ', s2.address, s2.address_details ->> 'city',
                s2.original_place, t.terms), '\s+') WITH ORDINALITY p(c, n)
         JOIN poruch_chunk_keys k ON k.chunk = p.c) AS c
    FROM services s2 LEFT JOIN search_category_terms t ON t.category = s2.category
  ) d WHERE d.id = s.id;
  -- Vacancies repeat their texts a lot: key each distinct name and requirements + description.
  UPDATE vacancies v SET
    search_doc = setweight(n.doc, 'A') || setweight(b.doc, 'B') || setweight(s.name_doc, 'C'),
    name_doc = n.doc,
    service_status = s.status,
    service_country = s.country_code,
    service_category = s.category
  FROM services s,
    (SELECT name, to_tsvector('simple', (SELECT coalesce(string_agg(k.key, ' ' ORDER BY p.n), '')
         FROM regexp_split_to_table(x.name, '\s+') WITH ORDINALITY p(c, n)
         JOIN poruch_chunk_keys k ON k.chunk = p.c)) AS doc
       FROM (SELECT DISTINCT name FROM vacancies) x) n,
    (SELECT requirements, description,
            to_tsvector('simple', (SELECT coalesce(string_agg(k.key, ' ' ORDER BY p.n), '')
         FROM regexp_split_to_table(concat_ws(' ', x.requirements, x.description), '\s+')
              WITH ORDINALITY p(c, n)
         JOIN poruch_chunk_keys k ON k.chunk = p.c)) AS doc
       FROM (SELECT DISTINCT requirements, description FROM vacancies) x) b
  WHERE s.id = v.service_id AND n.name = v.name
    AND b.requirements = v.requirements AND b.description = v.description;
  DROP TABLE pg_temp.poruch_chunk_keys;
  PERFORM poruch_rebuild_search_words();
  PERFORM set_config('poruch.search_bulk', '', true);
END $$;
--> statement-breakpoint
SELECT poruch_search_refresh();
--> statement-breakpoint
CREATE INDEX services_name_doc_idx ON services USING gin (name_doc);
--> statement-breakpoint
CREATE INDEX vacancies_name_doc_idx ON vacancies USING gin (name_doc);
--> statement-breakpoint
-- Open vacancies of approved services, newest first, by country: the default vacancy listing.
CREATE INDEX vacancies_listed_created_idx ON vacancies (created_at DESC, id)
  WHERE service_status = 'approved' AND is_open;
--> statement-breakpoint
CREATE INDEX vacancies_listed_country_idx ON vacancies (service_country, created_at DESC)
  WHERE service_status = 'approved' AND is_open;
