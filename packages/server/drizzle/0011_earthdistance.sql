-- Distances of the search (src/search/geo.ts): earthdistance's `<@>`. earthdistance needs cube.
-- Both ship with PostgreSQL's contrib and with PGlite, and both are trusted extensions.
CREATE EXTENSION IF NOT EXISTS cube;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS earthdistance;
