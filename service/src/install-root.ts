// Where the repository's files are at run time (the migrations, the built front ends, the sources the OpenAPI
// document reads its errors from, Swagger UI): beside the sources when the service runs with bun, and at the root of
// the executable's embedded files in the binary, which scripts/build-binary.mjs embeds under their repository paths.
import { resolve } from 'node:path';

export const REPO_ROOT = Bun.isStandaloneExecutable ? import.meta.dir : resolve(import.meta.dir, '../..');
