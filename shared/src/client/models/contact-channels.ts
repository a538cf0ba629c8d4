// Contact channels (client-library §1.7.7).
import { hasCode } from '../known-error-catalogue.ts';
import { compact, type ClientContext, type ServerContext } from './common.ts';
import type { InternalSession } from '../session.ts';
import type {
  ClientContactChannelUpdateBody,
  ContactChannelJson,
  ListOf,
  SendVerificationCodeBody,
  ServerContactChannelUpdateBody,
} from '../wire.ts';

export type { ContactChannelJson };

export interface ContactChannel {
  readonly id: string;
  readonly value: string;
  readonly type: 'email';
  readonly isPrimary: boolean;
  readonly isVerified: boolean;
  readonly usedForAuth: boolean;
  sendVerificationEmail(options?: { callbackUrl?: string }): Promise<void>;
  update(data: ContactChannelUpdateOptions): Promise<void>;
  delete(): Promise<void>;
}

export type ContactChannelUpdateOptions = { value?: string; usedForAuth?: boolean; isPrimary?: boolean };
export type ServerContactChannelUpdateOptions = ContactChannelUpdateOptions & { isVerified?: boolean };

export interface ServerContactChannel extends Omit<ContactChannel, 'update'> {
  update(data: ServerContactChannelUpdateOptions): Promise<void>;
}

export type ContactChannelCreateOptions = { type: 'email'; value: string; usedForAuth: boolean; isPrimary?: boolean };
export type ServerContactChannelCreateOptions = ContactChannelCreateOptions & { isVerified?: boolean };

function fields(json: ContactChannelJson) {
  return {
    id: json.id,
    value: json.value,
    type: json.type,
    isPrimary: json.is_primary,
    isVerified: json.is_verified,
    usedForAuth: json.used_for_auth,
  };
}

export function contactChannelsCache(ctx: ClientContext) {
  return ctx.core.cache('contact-channels', ([session]: [InternalSession]) =>
    ctx.core.json<ListOf<ContactChannelJson>>('/contact-channels?user_id=me', {}, session, 'client').then((j) => j.items),
  );
}

export function serverContactChannelsCache(ctx: ServerContext) {
  return ctx.core.cache(`server-contact-channels:${ctx.access}`, ([userId]: [string]) =>
    ctx.core.json<ListOf<ContactChannelJson>>(`/contact-channels?user_id=${encodeURIComponent(userId)}`, {}, null, ctx.access).then((j) => j.items),
  );
}

export function createContactChannel(ctx: ClientContext, json: ContactChannelJson): ContactChannel {
  const { core, session } = ctx;
  const path = `/contact-channels/me/${json.id}`;
  const refresh = () => contactChannelsCache(ctx).refresh([session]);
  return Object.freeze({
    ...fields(json),
    async sendVerificationEmail(options?: { callbackUrl?: string }) {
      const callbackUrl = options?.callbackUrl ?? core.redirector.constructRedirectUrl(core.urls.emailVerification, 'callbackUrl');
      try {
        await core.json<unknown, SendVerificationCodeBody>(`${path}/send-verification-code`, { method: 'POST', body: { callback_url: callbackUrl } }, session, 'client');
      } catch (err) {
        if (!hasCode('EMAIL_ALREADY_VERIFIED')(err)) throw err;
      }
    },
    async update(data: ContactChannelUpdateOptions) {
      await core.json<ContactChannelJson, ClientContactChannelUpdateBody>(path, {
        method: 'PATCH',
        body: compact({ value: data.value, used_for_auth: data.usedForAuth, is_primary: data.isPrimary }),
      }, session, 'client');
      await refresh();
    },
    async delete() {
      await core.json(path, { method: 'DELETE' }, session, 'client');
      await refresh();
    },
  });
}

export function createServerContactChannel(ctx: ServerContext, json: ContactChannelJson, onUserChanged: () => Promise<void>): ServerContactChannel {
  const { core, access } = ctx;
  const path = `/contact-channels/${json.user_id}/${json.id}`;
  const refresh = async () => {
    await serverContactChannelsCache(ctx).refreshWhere(([u]) => u === json.user_id);
    await onUserChanged();
  };
  return Object.freeze({
    ...fields(json),
    async sendVerificationEmail(options?: { callbackUrl?: string }) {
      const callbackUrl = options?.callbackUrl ?? core.redirector.constructRedirectUrl(core.urls.emailVerification, 'callbackUrl');
      await core.json<unknown, SendVerificationCodeBody>(`${path}/send-verification-code`, { method: 'POST', body: { callback_url: callbackUrl } }, null, access);
    },
    async update(data: ServerContactChannelUpdateOptions) {
      await core.json<ContactChannelJson, ServerContactChannelUpdateBody>(path, {
        method: 'PATCH',
        body: compact({ value: data.value, used_for_auth: data.usedForAuth, is_primary: data.isPrimary, is_verified: data.isVerified }),
      }, null, access);
      await refresh();
    },
    async delete() {
      await core.json(path, { method: 'DELETE' }, null, access);
      await refresh();
    },
  });
}
