-- Mails queued before 0019 kept their subject as sent, and the default sign-in mail's subject holds its code
-- ("Your code is WZ88NC"). A mail not sent yet keeps that subject as its live one (the outbox sends `live_subject`;
-- an unsealed value is read as it is), and every mail that carried a code gets its recorded subject redacted.
-- New mails are redacted from their template's variables (service/src/email/redaction.ts); this pattern match is
-- for the rows written before, whose variables are gone: the sign-in code's 6 characters of the code alphabet
-- and any whole 45-character code.
UPDATE "emails" SET "live_subject" = "subject" WHERE "status" IN ('pending', 'sending');
--> statement-breakpoint
UPDATE "emails"
SET "subject" = regexp_replace(
  regexp_replace("subject", '[0-9a-hjkmnp-tv-z]{45}', '[code]', 'gi'),
  '\m[0-9A-HJKMNP-TV-Z]{6}\M', '[code]', 'g')
WHERE "code_expires_at" IS NOT NULL;
