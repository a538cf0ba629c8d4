-- A database from before key records (issue 29) may have access tokens in circulation, signed with keys derived
-- from GATEHOUSE_SERVER_SECRET. That derivation becomes the current record, so nothing changes at the upgrade: those
-- tokens keep verifying, and instances not yet upgraded sign with the same keys. The first rotation (`keys rotate`,
-- or the automatic one) makes it previous; it is retired once its last token has expired. A database without
-- sessions has no such tokens: the service creates fresh sealed records at its first start.
INSERT INTO "signing_keys" ("id", "state", "algorithm", "derivation", "activated_at")
SELECT 'legacy', 'current', 'ES256', 'server-secret', now()
WHERE EXISTS (SELECT 1 FROM "sessions");
