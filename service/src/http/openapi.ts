// The OpenAPI 3.1 document, generated from the same route declarations and TypeBox schemas that validate requests.
import { OptionalKind, type TSchema } from '@sinclair/typebox';
import { schemasOf, type RouteDef } from './route';

function jsonSchema(schema: TSchema): unknown {
  // TypeBox schemas are JSON Schema; drop our validator-only hints.
  return JSON.parse(JSON.stringify(schema, (key, value) => (key === 'patternMessage' || key === 'emptyMessage' ? undefined : value)));
}

function oneOfByAccess(schema: RouteDef['body']) {
  const variants = schemasOf(schema);
  if (variants.length === 0) return undefined;
  if (variants.length === 1) return jsonSchema(variants[0].schema);
  return { oneOf: variants.map((v) => ({ ...(jsonSchema(v.schema) as object), title: `${v.access} access` })) };
}

export function buildOpenApiDocument(routes: RouteDef[], serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    if (r.hidden) continue;
    const path = r.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const parameters: unknown[] = [];
    for (const [name, s] of Object.entries((r.params as any)?.properties ?? {})) parameters.push({ name, in: 'path', required: true, schema: jsonSchema(s as TSchema) });
    const q = r.query as any;
    for (const [name, s] of Object.entries(q?.properties ?? {})) parameters.push({ name, in: 'query', required: (q.required ?? []).includes(name), schema: jsonSchema(s as TSchema) });
    const body = oneOfByAccess(r.body);
    const response = oneOfByAccess(r.response);
    (paths[path] ??= {})[r.method.toLowerCase()] = {
      summary: r.summary,
      tags: r.tags,
      description: r.access === 'optional' ? 'Authentication optional.' : `Access types: ${r.access.join(', ')}.`,
      parameters,
      ...(body ? { requestBody: { required: !(r.body as any)?.[OptionalKind], content: { 'application/json': { schema: body } } } } : {}),
      responses: {
        [String(r.status ?? 200)]: { description: 'Success', ...(response ? { content: { 'application/json': { schema: response } } } : {}) },
        '4XX': { description: 'A known error: `{code, details?, error}` with header `x-stack-known-error`, or a plain-text error' },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Gatehouse API', version: '1.0.0', description: "Gatehouse speaks Stack Auth's REST API v1. Authenticate with the x-stack-* headers." },
    servers: [{ url: `${serverUrl}/api/v1` }],
    components: {
      securitySchemes: {
        projectId: { type: 'apiKey', in: 'header', name: 'x-stack-project-id' },
        accessType: { type: 'apiKey', in: 'header', name: 'x-stack-access-type' },
      },
    },
    paths,
  };
}

/** A self-contained docs page (no CDN: this machine and many deployments are offline). */
export function docsPage(specUrl: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Gatehouse API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:960px;margin:2rem auto;padding:0 1rem;color:#222}
h2{margin-top:2rem;border-bottom:1px solid #ddd}code,pre{background:#f5f5f5;border-radius:4px}pre{padding:.5rem;overflow:auto;font-size:12px}
.m{display:inline-block;min-width:4.5rem;font-weight:700}.GET{color:#2f9e44}.POST{color:#1971c2}.PATCH{color:#e8590c}.DELETE{color:#e03131}.PUT{color:#9c36b5}
details{margin:.25rem 0}</style></head><body><h1>Gatehouse API</h1><p>Machine-readable: <a href="${specUrl}">${specUrl}</a></p><div id="r">Loading…</div>
<script>fetch(${JSON.stringify(specUrl)}).then(r=>r.json()).then(d=>{const e=document.getElementById('r');e.innerHTML='';
const esc=s=>String(s).replace(/[&<>]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;'}[c]));
for(const [p,ops] of Object.entries(d.paths)){for(const [m,o] of Object.entries(ops)){const el=document.createElement('details');
el.innerHTML='<summary><span class="m '+m.toUpperCase()+'">'+m.toUpperCase()+'</span><code>'+esc(p)+'</code> '+esc(o.summary||'')+'</summary><p>'+esc(o.description||'')+'</p><pre>'+esc(JSON.stringify({parameters:o.parameters,requestBody:o.requestBody,responses:o.responses},null,2))+'</pre>';e.appendChild(el)}}})</script></body></html>`;
}
