// @ts-nocheck -- this package has no Node types (it runs in browsers), so `process` is unknown to the checker here.
// Bundlers (Next.js, webpack's DefinePlugin, esbuild's define) put environment values into browser bundles only
// where `process.env.NAME` is written out literally, so every variable the apps read is read here by name. Each read
// is a function: in a runtime without `process` (and with nothing replaced) it throws, and readEnv answers undefined.
export const ENV_LITERALS = {
  NEXT_PUBLIC_STACK_PROJECT_ID: () => process.env.NEXT_PUBLIC_STACK_PROJECT_ID,
  NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY: () => process.env.NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY,
  STACK_SECRET_SERVER_KEY: () => process.env.STACK_SECRET_SERVER_KEY,
  STACK_SUPER_SECRET_ADMIN_KEY: () => process.env.STACK_SUPER_SECRET_ADMIN_KEY,
  NEXT_PUBLIC_BROWSER_STACK_API_URL: () => process.env.NEXT_PUBLIC_BROWSER_STACK_API_URL,
  NEXT_PUBLIC_SERVER_STACK_API_URL: () => process.env.NEXT_PUBLIC_SERVER_STACK_API_URL,
  NEXT_PUBLIC_STACK_API_URL: () => process.env.NEXT_PUBLIC_STACK_API_URL,
  NEXT_PUBLIC_STACK_URL: () => process.env.NEXT_PUBLIC_STACK_URL,
  NEXT_PUBLIC_STACK_EXTRA_REQUEST_HEADERS: () => process.env.NEXT_PUBLIC_STACK_EXTRA_REQUEST_HEADERS,
};
