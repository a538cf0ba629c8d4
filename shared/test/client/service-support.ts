// Re-exports for the service-backed client tests.
export { GatehouseClientApp, GatehouseServerApp, GatehouseAdminApp, type ClientTimers } from '../../src/client/index.ts';
export { KnownErrors as KnownErrorsForTests } from '../../src/known-errors.ts';
