-- GET /users?query= matches a fragment anywhere in a display name or a contact channel ('%frag%'): a b-tree cannot
-- serve that, so every search read all of a project's users. Trigram GIN indexes serve it on PostgreSQL and on PGlite
-- (which loads the pg_trgm extension at open, service/src/db/index.ts). pg_trgm is a trusted extension: the database
-- owner may create it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS users_display_name_trgm_idx ON users USING gin (display_name gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS contact_channels_value_trgm_idx ON contact_channels USING gin (value gin_trgm_ops);
