// Bad input a use case finds beyond what the route's schemas check (a project configuration's own schema, a
// permission containment cycle): the route runner (http/route.ts) answers it as the request's SCHEMA_ERROR, one line
// per problem, as if the schema had found it, so a use case reports it without knowing the request.
export class InputProblems extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
  }
}
