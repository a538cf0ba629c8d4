// The English texts loaded so far: the catalogue of 'en' and the fallback of every language. Every page needs
// enBase; the texts of the other handler pages (en-pages.ts) and of the account settings join when the chunks that
// show them (or en.ts) load, so the sign-in page does not carry them. One object, so `en` (en.ts) and the catalogue the pages read are the same.
import { enBase } from './en-base';
import type { Messages } from './en';

const english: Partial<Messages> = { ...enBase };

/** Adds the English texts of a section that loads with its own chunk; returns the catalogue. */
export function registerEnglish(texts: Partial<Messages>): Messages {
  Object.assign(english, texts);
  // Complete once every section's texts are in; until then only the sections that have loaded ask for theirs.
  return english as Messages;
}

/** The English catalogue as loaded so far. */
export const englishLoaded = english as Messages;
