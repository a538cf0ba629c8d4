// Input that is valid JSON or valid Unicode but dangerous to what reads it later (ASVS 5.1.3, 5.2.2).

/**
 * Keys that reach an object's prototype when a reader merges metadata into an object with bracket assignment or a
 * naive deep merge (prototype pollution). Refused at every depth of a metadata value.
 */
export const RESERVED_JSON_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/**
 * The path (".a.b", "[2].__proto__") of the first reserved key inside a JSON value, or null if there is none.
 * Iterative: the depth of a request's JSON is untrusted.
 */
export function reservedJsonKeyPath(value: unknown): string | null {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (Array.isArray(v)) v.forEach((item, i) => stack.push([item, `${path}[${i}]`]));
    else if (v && typeof v === 'object') {
      // Object.keys sees an own "__proto__" key, which JSON.parse creates as a plain property.
      for (const key of Object.keys(v)) {
        if (RESERVED_JSON_KEYS.includes(key)) return `${path}.${key}`;
        stack.push([(v as Record<string, unknown>)[key], `${path}.${key}`]);
      }
    }
  }
  return null;
}

/** The problem text after the path of a reserved key (the protocol's SCHEMA_ERROR line). */
export const RESERVED_JSON_KEY_PROBLEM = 'is a reserved key (__proto__, constructor and prototype are not allowed)';

/**
 * C0 and C1 control characters (tab and newline included: a name is one line) and the bidirectional embedding,
 * override and isolate characters (U+202A-U+202E, U+2066-U+2069), which make a name display as something else
 * ("Trojan Source"-style spoofing in lists, emails and the console).
 */
const UNSAFE_NAME_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Whether a display name holds a control or bidirectional-override character. */
export function hasUnsafeNameCharacters(name: string): boolean {
  return UNSAFE_NAME_CHARACTERS.test(name);
}

/** The problem text after a display name's path (the protocol's SCHEMA_ERROR line). */
export const UNSAFE_NAME_PROBLEM = 'must not contain control or bidirectional override characters';
