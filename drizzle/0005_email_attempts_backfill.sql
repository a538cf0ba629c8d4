-- The sent-email list now reads email_attempts. Mail that was attempted before this table existed keeps its entry:
-- its latest recorded outcome (success, or the last failure of a mail given up or still retried) becomes one
-- attempt; earlier attempts were never kept. Mail not yet attempted gets none, as with new mail.
INSERT INTO "email_attempts" ("project_id", "email_id", "error", "created_at")
SELECT "project_id", "id", "last_error", coalesce("last_attempt_at", "created_at")
FROM "emails"
WHERE "status" = 'sent' OR "last_error" IS NOT NULL;
