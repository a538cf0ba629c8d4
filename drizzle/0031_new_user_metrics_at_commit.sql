-- A new user's counters are bumped at commit instead of at the insert (issue 31, sign-up). Every sign-up of a project
-- bumps the same few rows ('users', the day's 'sign_ups', the method), and the insert trigger held their row locks
-- from the user's insert to the end of its transaction: the contact channel, the read-back, the webhook deliveries,
-- each a round trip to a service whose CPU the password hashes hold. Concurrent sign-ups of a project queued on those
-- locks for that whole time (pg_stat_statements at 64 sign-ups in flight: 20 ms a user insert, all of it the counter
-- upsert). As a deferred constraint trigger the upsert runs as the transaction commits, so the locks are held for
-- the commit alone. The sums stay those of 0016 and 0018: the trigger gets the row as it was inserted; an update of
-- a counted column in the same transaction is counted by the update trigger (minus the old values, plus the new),
-- and a deletion by the delete trigger, whatever their order with this one.
DROP TRIGGER users_metrics_insert ON users;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER users_metrics_insert AFTER INSERT ON users DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION gatehouse_users_metrics_trigger();
