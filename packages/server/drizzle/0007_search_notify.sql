-- Search result cache without a query per hit (src/search/cache.ts): the statement trigger of
-- migration 0005 also sends NOTIFY poruch_search, delivered when the writing transaction commits
-- (one notification per transaction: PostgreSQL folds identical ones). Every connection of the
-- server listens, so a hit needs no generation read; the generation stays for a server that is
-- not listening (a lost listener connection, a hot standby).
CREATE OR REPLACE FUNCTION poruch_bump_search_generation() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('poruch_search_generation');
  PERFORM pg_notify('poruch_search', '');
  RETURN NULL;
END $$;
