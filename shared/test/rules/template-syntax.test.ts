// Template syntax: what the renderer understands parses; an unclosed, unopened or unknown tag is named with its line.
import { describe, expect, test } from 'bun:test';
import {
  DEFAULT_EMAIL_TEMPLATES, MAGIC_LINK_TEMPLATE_V1, PROJECT_OWNER_INVITATION_TEMPLATE, describeTemplateSyntaxProblem, templateSyntaxProblem,
} from '../../src/email-templates/index.ts';

describe('templateSyntaxProblem', () => {
  test('every built-in template parses (subject, html, text)', () => {
    for (const tpl of [...Object.values(DEFAULT_EMAIL_TEMPLATES), MAGIC_LINK_TEMPLATE_V1, PROJECT_OWNER_INVITATION_TEMPLATE]) {
      for (const part of [tpl.subject, tpl.content.html, tpl.content.text]) expect(templateSyntaxProblem(part)).toBeNull();
    }
  });

  test('variables, triple braces, nested sections with else, and plain braces in text parse', () => {
    expect(templateSyntaxProblem('Hi {{ userDisplayName }}, {{{projectDisplayName}}}')).toBeNull();
    expect(templateSyntaxProblem('{{#if a}}x{{#if b}}y{{else}}z{{/if}}{{else}}w{{/if}}')).toBeNull();
    expect(templateSyntaxProblem('body { color: red } and a { single brace }')).toBeNull();
  });

  test('the issue\'s subject: an unclosed {{#if userDisplayName}}, named with its line', () => {
    const p = templateSyntaxProblem('Confirm your {{ projectDisplayName }} email{{#if userDisplayName}}, {{ userDisplayName }}!');
    expect(p).toEqual({ kind: 'unclosed_if', line: 1, tag: '{{#if userDisplayName}}' });
    expect(describeTemplateSyntaxProblem(p!)).toBe('line 1: {{#if userDisplayName}} is never closed with {{/if}}');
  });

  test('lines are counted, inner sections close before outer ones', () => {
    expect(templateSyntaxProblem('<p>\n{{#if a}}\n{{#if b}}\n{{/if}}\n</p>')).toEqual({ kind: 'unclosed_if', line: 2, tag: '{{#if a}}' });
    expect(templateSyntaxProblem('a\nb\n{{/if}}')).toEqual({ kind: 'unopened_close', line: 3, tag: '{{/if}}' });
    expect(templateSyntaxProblem('{{else}}')).toEqual({ kind: 'stray_else', line: 1, tag: '{{else}}' });
    expect(templateSyntaxProblem('{{#if a}}1{{else}}2{{else}}3{{/if}}')).toEqual({ kind: 'stray_else', line: 1, tag: '{{else}}' });
    expect(templateSyntaxProblem('x\n{{#each items}}{{/each}}')).toEqual({ kind: 'unknown_tag', line: 2, tag: '{{#each items}}' });
    expect(templateSyntaxProblem('{{ user name }}')).toMatchObject({ kind: 'unknown_tag' });
    expect(templateSyntaxProblem('Hello\n\n{{ userDisplayName')).toEqual({ kind: 'unterminated_tag', line: 3, tag: '{{ userDisplayName' });
  });
});
