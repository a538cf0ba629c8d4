// Secrets of the service itself (table `service_secrets`), shared by every instance on the same database.
import { eq } from 'drizzle-orm';
import type { DB } from '../db';
import { schema } from '../db';

const s = schema.serviceSecrets;

/** The stored value of `id`, storing `generate()` first when there is none (the first instance to store wins). */
export async function loadOrCreate(db: DB, id: string, generate: () => string): Promise<string> {
  const [row] = await db.select().from(s).where(eq(s.id, id));
  if (row) return row.value;
  await db.insert(s).values({ id, value: generate() }).onConflictDoNothing();
  const [stored] = await db.select().from(s).where(eq(s.id, id));
  return stored!.value;
}

/** The stored value of `id`, if any (nothing is created). */
export async function find(db: DB, id: string): Promise<string | undefined> {
  const [row] = await db.select().from(s).where(eq(s.id, id));
  return row?.value;
}
