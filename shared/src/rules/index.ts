// Pure protocol rules: no HTTP, no database, no Node-only APIs.
export * from './api-keys';
export * from './base64';
export * from './codes';
export * from './email';
export * from './names';
export * from './password';
export * from './permissions';
export * from './production-mode';
export * from './profile-image';
export * from './time';
export * from './uuid';
export * from './urls';
export * from './input-safety';
