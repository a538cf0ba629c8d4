/**
 * Does a template part parse? The renderer (render.ts) knows `{{ name }}`, `{{{ name }}}` and `{{#if name}} …
 * {{else}} … {{/if}}`; anything else between braces, an `{{#if}}` never closed or a `{{/if}}` never opened would be
 * sent to users as it stands (a subject with an unclosed `{{#if userDisplayName}}` read "Confirm your … email, !").
 * The service refuses such a template and the console says the same before saving: the first problem, with its line
 * and the tag as written.
 */
export type TemplateSyntaxProblem =
  | { kind: 'unclosed_if'; line: number; tag: string }
  | { kind: 'unopened_close'; line: number; tag: string }
  | { kind: 'stray_else'; line: number; tag: string }
  | { kind: 'unknown_tag'; line: number; tag: string }
  | { kind: 'unterminated_tag'; line: number; tag: string };

const IF_OPEN = /^\{\{#if\s+[A-Za-z_]\w*\s*\}\}$/;
const IF_CLOSE = /^\{\{\/if\s*\}\}$/;
const ELSE = /^\{\{else\s*\}\}$/;
const VARIABLE = /^\{\{\s*[A-Za-z_]\w*\s*\}\}$|^\{\{\{\s*[A-Za-z_]\w*\s*\}\}\}$/;

export function templateSyntaxProblem(source: string): TemplateSyntaxProblem | null {
  const open: { line: number; tag: string; sawElse: boolean }[] = [];
  let line = 1;
  let at = 0;
  for (;;) {
    const start = source.indexOf('{{', at);
    if (start < 0) break;
    line += countNewlines(source, at, start);
    const triple = source.startsWith('{{{', start);
    const end = source.indexOf(triple ? '}}}' : '}}', start);
    if (end < 0) return { kind: 'unterminated_tag', line, tag: firstLine(source.slice(start, start + 40)) };
    const tag = source.slice(start, end + (triple ? 3 : 2));
    if (IF_OPEN.test(tag)) open.push({ line, tag, sawElse: false });
    else if (IF_CLOSE.test(tag)) {
      if (!open.pop()) return { kind: 'unopened_close', line, tag };
    } else if (ELSE.test(tag)) {
      const section = open[open.length - 1];
      if (!section || section.sawElse) return { kind: 'stray_else', line, tag };
      section.sawElse = true;
    } else if (!VARIABLE.test(tag)) return { kind: 'unknown_tag', line, tag: firstLine(tag) };
    line += countNewlines(source, start, end);
    at = end + (triple ? 3 : 2);
  }
  const unclosed = open.pop();
  return unclosed ? { kind: 'unclosed_if', line: unclosed.line, tag: unclosed.tag } : null;
}

function countNewlines(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if (s.charCodeAt(i) === 10) n++;
  return n;
}

const firstLine = (s: string) => s.split('\n', 1)[0]!;

/** The problem in the service's words (a schema error's text; the console has its own catalogue texts). */
export function describeTemplateSyntaxProblem(p: TemplateSyntaxProblem): string {
  const where = `line ${p.line}: ${p.tag}`;
  switch (p.kind) {
    case 'unclosed_if': return `${where} is never closed with {{/if}}`;
    case 'unopened_close': return `${where} closes no {{#if}}`;
    case 'stray_else': return `${where} is outside an {{#if}} section or its second {{else}}`;
    case 'unknown_tag': return `${where} is not a tag templates know ({{ variable }}, {{#if variable}}, {{else}}, {{/if}})`;
    case 'unterminated_tag': return `${where} is never closed with }}`;
  }
}
