// A project's customised email template of one type (table `email_templates`), read when a flow sends mail.
import { and, eq } from 'drizzle-orm';
import type { DB } from '../db';
import { schema } from '../db';
import type { EmailTemplateSource, EmailTemplateType } from '../email/templates';

export async function findTemplateOverride(db: DB, projectId: string, type: EmailTemplateType): Promise<EmailTemplateSource | null> {
  const t = schema.emailTemplates;
  const [row] = await db.select({ subject: t.subject, content: t.content }).from(t)
    .where(and(eq(t.projectId, projectId), eq(t.type, type))).limit(1);
  return row ? { subject: row.subject, content: row.content as EmailTemplateSource['content'] } : null;
}
