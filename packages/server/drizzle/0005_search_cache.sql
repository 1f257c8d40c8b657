-- Search result cache (src/search/cache.ts): a generation number that every write to the
-- searched tables moves on, one nextval per statement (no row lock, so writers never wait on
-- each other). The server keeps recent pages keyed by the query and reuses one only while the
-- generation is unchanged.
CREATE SEQUENCE poruch_search_generation;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION poruch_bump_search_generation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('poruch_search_generation');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER services_search_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON services
  FOR EACH STATEMENT EXECUTE FUNCTION poruch_bump_search_generation();
--> statement-breakpoint
CREATE TRIGGER vacancies_search_generation AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON vacancies
  FOR EACH STATEMENT EXECUTE FUNCTION poruch_bump_search_generation();
--> statement-breakpoint
CREATE TRIGGER search_category_terms_generation
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON search_category_terms
  FOR EACH STATEMENT EXECUTE FUNCTION poruch_bump_search_generation();
