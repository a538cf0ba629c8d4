// Development keys of the internal project (protocol-resources §10.6). Never valid when NODE_ENV=production
// (bootstrap.ts revokes them at a production start).
export const KEY_SET_ID_INTERNAL = '3142e763-b230-44b5-8636-aa62f7489c26';
export const DEV_KEYS = {
  publishable_client_key: 'this-publishable-client-key-is-for-local-development-only',
  secret_server_key: 'this-secret-server-key-is-for-local-development-only',
  super_secret_admin_key: 'this-super-secret-admin-key-is-for-local-development-only',
};

/**
 * The demo project (demo-project.ts): the app at `/` in development signs people into it. Its publishable key is
 * public like the internal project's development keys, and likewise never valid in production (nothing of the demo
 * is created there). Only a publishable client key: the demo is a client app; owners reach it through the console.
 */
export const DEMO_PROJECT_ID = 'demo';
export const KEY_SET_ID_DEMO = '5d0c8a1e-6f0b-4d5e-9a57-2d1f3c9b7e41';
export const DEMO_DEV_KEYS = {
  publishable_client_key: 'this-demo-publishable-client-key-is-for-local-development-only',
};
