// A project's customised email templates (table `email_templates`; one row per customised type). Types without a
// row use the built-in defaults of @gatehouse/shared/email-templates.
import { and, eq, sql } from 'drizzle-orm';
import { Value } from '@sinclair/typebox/value';
import { EmailTemplateContent, type EmailTemplateType } from '@gatehouse/shared/schemas/email-templates';
import type { DB } from '../db';
import { schema } from '../db';

/** A stored customisation: the subject and the `{html, text}` content (@gatehouse/shared/email-templates renders it). */
export interface EmailTemplateSource { subject: string; content: EmailTemplateContent }

const t = schema.emailTemplates;

function toSource(row: { subject: string; content: unknown }): EmailTemplateSource | null {
  // Rows are validated on write; a row that does not fit (hand-edited) is ignored rather than sent broken.
  return Value.Check(EmailTemplateContent, row.content) ? { subject: row.subject, content: row.content } : null;
}

/**
 * The project's custom template of this type, or null for the default. Email flows pass the result as the
 * `template` option of `enqueueTemplatedEmail` (null/undefined → built-in default).
 */
export async function loadProjectTemplate(db: DB, projectId: string, type: EmailTemplateType): Promise<EmailTemplateSource | null> {
  const [row] = await db.select({ subject: t.subject, content: t.content }).from(t)
    .where(and(eq(t.projectId, projectId), eq(t.type, type))).limit(1);
  return row ? toSource(row) : null;
}

export async function listCustom(db: DB, projectId: string): Promise<Map<string, EmailTemplateSource>> {
  const rows = await db.select({ type: t.type, subject: t.subject, content: t.content }).from(t).where(eq(t.projectId, projectId));
  const out = new Map<string, EmailTemplateSource>();
  for (const r of rows) {
    const s = toSource(r);
    if (s) out.set(r.type, s);
  }
  return out;
}

/**
 * Creates or updates the customisation in one statement: parts not given keep their stored value, or (first
 * customisation) take the default's (`fallback`).
 */
export async function upsert(db: DB, projectId: string, type: EmailTemplateType, patch: { subject?: string; content?: EmailTemplateContent }, fallback: EmailTemplateSource): Promise<EmailTemplateSource> {
  const subject = patch.subject ?? fallback.subject;
  const content = patch.content ?? fallback.content;
  const [row] = await db.insert(t).values({ projectId, type, subject, content }).onConflictDoUpdate({
    target: [t.projectId, t.type],
    set: {
      subject: patch.subject !== undefined ? sql`excluded.subject` : sql`${t.subject}`,
      content: patch.content !== undefined ? sql`excluded.content` : sql`${t.content}`,
      updatedAt: sql`now()`,
    },
  }).returning({ subject: t.subject, content: t.content });
  return { subject: row!.subject, content: row!.content as EmailTemplateContent };
}

export async function remove(db: DB, projectId: string, type: EmailTemplateType): Promise<boolean> {
  const rows = await db.delete(t).where(and(eq(t.projectId, projectId), eq(t.type, type))).returning({ type: t.type });
  return rows.length > 0;
}
