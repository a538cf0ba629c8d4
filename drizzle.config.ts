import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: ['./service/src/db/schema.ts', './service/src/db/schema-enterprise.ts'],
  out: './drizzle',
});
