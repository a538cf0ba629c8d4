// English: the reference catalogue. Every other language has exactly these keys (a unit test checks it).
// The texts are in en-base.ts (every page), en-pages.ts (the other handler pages, the TOTP dialog, the header
// widgets) and en-settings.ts (the settings chunk); this module joins them in the one English catalogue
// (english.ts), so importing it gives the whole catalogue.
import type { enBase } from './en-base';
import { enPages } from './en-pages';
import { enSettings } from './en-settings';
import { registerEnglish } from './english';

export const en = registerEnglish({ ...enPages, ...enSettings }) as unknown as typeof enBase & typeof enPages & typeof enSettings;

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
