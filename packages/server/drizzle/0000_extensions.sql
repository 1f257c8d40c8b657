-- drizzle-kit does not write CREATE EXTENSION; the search needs both.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;
