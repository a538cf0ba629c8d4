// CSV fields and lines (RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled; lines end
// in CRLF). A text field that a spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage
// return) gets a leading apostrophe: a user's display name must not become a formula in the owner's spreadsheet
// (OWASP "CSV injection").
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(fields: readonly (string | number | boolean | null | undefined)[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}
