// GET /api/v1: a welcome text that also tells how the request authenticated.
import { route } from '../http/route';
import { HttpResult } from '../http/respond';
import { Empty } from '@gatehouse/shared/schemas/common';
import { IgnoredBody } from '@gatehouse/shared/schemas/auth';

export const rootRoutes = [
  route({
    method: 'GET', path: '', summary: 'Welcome text and the authentication the request carried', tags: ['Meta'],
    access: 'optional',
    query: Empty,
    async handler({ auth, user }) {
      const head = "Welcome to the Gatehouse API endpoint (compatible with Stack Auth's REST API v1). Please refer to the documentation at /api/v1/docs.";
      if (!auth) return HttpResult.text(`${head}\n\nAuthentication: None`);
      const u = await user();
      const type = auth.type[0].toUpperCase() + auth.type.slice(1);
      return HttpResult.text(`${head}\n\nAuthentication: ${type}\n  Project: ${auth.project.id}\n  User: ${u ? u.primary_email ?? u.id : 'None'}`);
    },
  }),
  route({
    method: 'POST', path: '/check-feature-support', summary: 'Reports that a client feature is not supported', tags: ['Meta'],
    access: 'optional',
    body: IgnoredBody,
    // The protocol's exact answer (protocol-auth §3.8): only `feature_name` names the feature. The SDK sends
    // `{name}`, so it gets "This feature …", as from the reference server; the SDK shows the text as its error.
    async handler({ body }) {
      const b = (body !== null && typeof body === 'object' ? body : {}) as { feature_name?: unknown };
      const name = typeof b.feature_name === 'string' ? b.feature_name : 'This feature';
      return HttpResult.text(`${name} is not yet supported. Please reach out to Stack support for more information.`);
    },
  }),
];
