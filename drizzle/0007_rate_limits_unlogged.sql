-- Rate-limit counters are not worth a WAL flush: losing them in a crash only resets some windows. Unlogged, a
-- counter update commits without waiting for the disk, so one busy key (every sign-in from one IP) does not
-- serialise requests behind fsyncs while its row lock is held.
ALTER TABLE "rate_limits" SET UNLOGGED;
