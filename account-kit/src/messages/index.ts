// The message catalogue: one translator per language, with host overrides. Components never hold texts.
// English ships in the main bundle, except the texts of the other handler pages and of the account settings, which
// the chunks that show them add with registerEnglish (a few kilobytes the sign-in page does not need); other
// languages load on demand.
import { en, type MessageKey, type Messages } from './en';
import { englishLoaded, registerEnglish } from './english';

export { en, englishLoaded, registerEnglish, type MessageKey, type Messages };

export const LANGS = ['en', 'de'] as const;
export type Lang = (typeof LANGS)[number];

const loaders: Record<Exclude<Lang, 'en'>, () => Promise<Messages>> = {
  de: () => import('./de').then((m) => m.de),
};
const loaded = new Map<string, Promise<Messages>>();

/** The catalogue of `lang` (English for unknown languages). */
export function loadCatalogue(lang: string): Promise<Messages> {
  if (!(lang in loaders)) return Promise.resolve(englishLoaded);
  let p = loaded.get(lang);
  if (!p) loaded.set(lang, (p = loaders[lang as Exclude<Lang, 'en'>]()));
  return p;
}

export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

/** A translator over `catalogue` (default English) where `overrides` replace single texts. */
export function createTranslator(catalogue: Messages = englishLoaded, overrides: Partial<Messages> = {}): Translate {
  return (key, values) => {
    const text = overrides[key] ?? catalogue[key] ?? englishLoaded[key] ?? key;
    return values ? text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole)) : text;
  };
}
