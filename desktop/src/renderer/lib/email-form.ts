// The email server form: shared or standard SMTP, checked with the service's schema for a standard config
// (host, port 0–65535, username, password, sender name and email all required).
import type { AdminEmailConfig } from '@gatehouse/shared/client';
import { StandardEmailConfig } from '@gatehouse/shared/schemas/projects';
import { isValidEmail } from '@gatehouse/shared/rules/email';
import { schemaProblems } from './schema-check';

export interface EmailFormValues {
  type: 'shared' | 'standard';
  host: string;
  port: string;
  username: string;
  password: string;
  senderName: string;
  senderEmail: string;
  requireTls: boolean;
}

export function emailFormValues(c: AdminEmailConfig): EmailFormValues {
  if (c.type === 'shared') return { type: 'shared', host: '', port: '587', username: '', password: '', senderName: '', senderEmail: '', requireTls: true };
  return { type: 'standard', host: c.host, port: String(c.port), username: c.username, password: c.password, senderName: c.senderName, senderEmail: c.senderEmail, requireTls: c.requireTls ?? false };
}

export function emailConfig(v: EmailFormValues): AdminEmailConfig {
  if (v.type === 'shared') return { type: 'shared' };
  return { type: 'standard', host: v.host.trim(), port: Number(v.port), username: v.username.trim(), password: v.password, senderName: v.senderName.trim(), senderEmail: v.senderEmail.trim(), requireTls: v.requireTls };
}

const FIELD_BY_PATH: Record<string, keyof EmailFormValues> = {
  '/host': 'host', '/port': 'port', '/username': 'username', '/password': 'password', '/sender_name': 'senderName', '/sender_email': 'senderEmail',
};

export function validateEmailForm(v: EmailFormValues, messages: { required: string; port: string; email: string }): Record<string, string> {
  if (v.type === 'shared') return {};
  const errors: Record<string, string> = {};
  const portText = v.port.trim();
  const wire = {
    type: 'standard', host: v.host.trim(), port: /^\d+$/.test(portText) ? Number(portText) : NaN, username: v.username.trim(), password: v.password,
    sender_name: v.senderName.trim(), sender_email: v.senderEmail.trim(),
  };
  for (const p of schemaProblems(StandardEmailConfig, wire)) {
    const field = FIELD_BY_PATH[p.path];
    if (field) errors[field] ??= field === 'port' ? messages.port : p.text;
  }
  for (const f of ['host', 'username', 'password', 'senderName', 'senderEmail'] as const) if (!v[f].trim()) errors[f] = messages.required;
  if (!errors.senderEmail && !isValidEmail(v.senderEmail.trim())) errors.senderEmail = messages.email;
  return errors;
}
