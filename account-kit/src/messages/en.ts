// English: the reference catalogue. Every other language has exactly these keys (a unit test checks it).
// The texts are in en-base.ts (every page) and en-settings.ts (the settings chunk); this module joins them in
// the one English catalogue (english.ts), so importing it gives the whole catalogue.
import type { enBase } from './en-base';
import { enSettings } from './en-settings';
import { registerEnglish } from './english';

export const en = registerEnglish(enSettings) as unknown as typeof enBase & typeof enSettings;

export type MessageKey = keyof typeof en;
export type Messages = Record<MessageKey, string>;
