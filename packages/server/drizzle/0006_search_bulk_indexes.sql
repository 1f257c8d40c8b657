-- After a bulk load, writing 400k documents into live GIN indexes costs twice as much as
-- building the indexes afresh. poruch_search_refresh_bulk() drops the GIN indexes of services and
-- vacancies, refreshes (poruch_search_refresh), and creates them again from their saved
-- definitions. It locks both tables until the transaction ends: for loaders only
-- (seedSynthetic), not for a live catalogue.
CREATE OR REPLACE FUNCTION poruch_search_refresh_bulk() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  definitions text[];
  definition text;
BEGIN
  SELECT coalesce(array_agg(pg_get_indexdef(i.indexrelid)), '{}') INTO definitions
    FROM pg_index i
    JOIN pg_class c ON c.oid = i.indexrelid
    JOIN pg_am am ON am.oid = c.relam
   WHERE i.indrelid IN ('services'::regclass, 'vacancies'::regclass) AND am.amname = 'gin';
  IF cardinality(definitions) > 0 THEN
    EXECUTE (
      SELECT 'DROP INDEX ' || string_agg(i.indexrelid::regclass::text, ', ')
        FROM pg_index i
        JOIN pg_class c ON c.oid = i.indexrelid
        JOIN pg_am am ON am.oid = c.relam
       WHERE i.indrelid IN ('services'::regclass, 'vacancies'::regclass) AND am.amname = 'gin');
  END IF;
  PERFORM poruch_search_refresh();
  FOREACH definition IN ARRAY definitions LOOP
    EXECUTE definition;
  END LOOP;
END $$;
