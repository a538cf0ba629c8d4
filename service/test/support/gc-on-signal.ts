// Preloaded into the service by forged-token-memory.test.ts: SIGUSR2 runs a full garbage collection, so that the
// test reads the resident memory of what is still referenced, not of garbage a collection has not reached yet.
process.on('SIGUSR2', () => Bun.gc(true));
