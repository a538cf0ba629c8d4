// The console's message catalogue and translator (one language for now; the keys are the contract).
import { en, type MessageKey } from './en';

export type { MessageKey };
export type Translate = (key: MessageKey, values?: Record<string, string | number>) => string;

export function createTranslator(catalogue: Record<MessageKey, string> = en): Translate {
  return (key, values) => {
    const text = catalogue[key] ?? key;
    return values ? text.replace(/\{(\w+)\}/g, (m, name) => (name in values ? String(values[name]) : m)) : text;
  };
}

export const t: Translate = createTranslator();
