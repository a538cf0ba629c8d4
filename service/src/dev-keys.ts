// Development keys of the internal project (protocol-resources §10.6). Never valid when NODE_ENV=production
// (bootstrap.ts revokes them at a production start).
export const KEY_SET_ID_INTERNAL = '3142e763-b230-44b5-8636-aa62f7489c26';
export const DEV_KEYS = {
  publishable_client_key: 'this-publishable-client-key-is-for-local-development-only',
  secret_server_key: 'this-secret-server-key-is-for-local-development-only',
  super_secret_admin_key: 'this-super-secret-admin-key-is-for-local-development-only',
};
