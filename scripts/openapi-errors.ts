// Writes every route's known errors (service/src/http/openapi-errors.ts, read from the sources) to the file given,
// for the binary, which holds no sources. Run by scripts/build-binary.mjs: bun scripts/openapi-errors.ts <file>
import { allRoutes } from '../service/src/routes';
import { errorsOfRoutes } from '../service/src/http/openapi-errors';

const out = process.argv[2];
if (!out) throw new Error('usage: bun scripts/openapi-errors.ts <output file>');
await Bun.write(out, JSON.stringify(errorsOfRoutes(allRoutes)));
