-- Duplicate detection (src/duplicates/, docs/product.md § Duplicates).
--
-- * name_key: the search key of the name (poruch_search_key: Cyrillic transliterated, case,
--   accents and spelling variants folded, so "Лелека" and "Leleka" are both "leleka"), kept by a
--   trigger on every insert and change of the name; a trigram index compares it with similarity().
-- * poruch_phone_key (the digits) and poruch_website_key (host and path, without scheme, "www."
--   query, fragment or trailing slash), each with an index over approved services.
-- * duplicate_answers: what the partner said about a lookalike when adding a service: "mine"
--   (a claim for the administrators: open, approved or declined) or "different" (a note for the
--   reviewer).
ALTER TABLE services ADD COLUMN name_key text NOT NULL DEFAULT '';
--> statement-breakpoint
CREATE OR REPLACE FUNCTION poruch_services_name_key() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.name_key := poruch_search_key(NEW.name);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER services_name_key BEFORE INSERT OR UPDATE OF name ON services
  FOR EACH ROW EXECUTE FUNCTION poruch_services_name_key();
--> statement-breakpoint
UPDATE services SET name_key = poruch_search_key(name);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION poruch_phone_key(input text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace(coalesce(input, ''), '[^0-9]', '', 'g')
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION poruch_website_key(input text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace(regexp_replace(regexp_replace(regexp_replace(
    lower(btrim(coalesce(input, ''))),
    '^[a-z][a-z0-9+.-]*://', ''), '^www\.', ''), '[?#].*$', ''), '/+$', '')
$$;
--> statement-breakpoint
CREATE INDEX services_name_key_trgm_idx ON services USING gin (name_key gin_trgm_ops)
  WHERE status = 'approved';
--> statement-breakpoint
CREATE INDEX services_phone_key_idx ON services (poruch_phone_key(phone))
  WHERE status = 'approved' AND phone <> '';
--> statement-breakpoint
CREATE INDEX services_website_key_idx ON services (poruch_website_key(website))
  WHERE status = 'approved' AND website <> '';
--> statement-breakpoint
CREATE TABLE duplicate_answers (
  service_id uuid NOT NULL REFERENCES services(id) ON DELETE CASCADE,
  candidate_id uuid NOT NULL REFERENCES services(id) ON DELETE CASCADE,
  answer text NOT NULL,
  claim_status text,
  resolved_by uuid REFERENCES accounts(id) ON DELETE SET NULL,
  resolved_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (service_id, candidate_id)
);
--> statement-breakpoint
CREATE INDEX duplicate_answers_open_claims_idx ON duplicate_answers (created_at)
  WHERE claim_status = 'open';
--> statement-breakpoint
CREATE INDEX duplicate_answers_candidate_idx ON duplicate_answers (candidate_id);
