// What a service started in production mode needs in its environment: a strong GATEHOUSE_SERVER_SECRET (main.ts
// refuses to start without one). A fixed test value: 32 random bytes, base64.
export const PRODUCTION_ENV = {
  NODE_ENV: 'production',
  GATEHOUSE_SERVER_SECRET: 'q3Jx1m0Wc8TnZ5bK2vLhY7dR4pE9sA6uF0gH3jN8kM4=',
} as const;
