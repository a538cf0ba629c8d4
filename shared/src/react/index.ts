// `@gatehouse/shared/react`: the React glue both front ends (the account kit and the console) build their hooks on.
//
// The one folder of shared/ that imports React (scripts/check-front-end.mjs): the service, the client library and the
// published package never load it (shared/scripts/build.mjs does not build this entry), so they stay free of React,
// and a front end that uses it brings React itself. A workspace package of its own for one hook would cost a
// manifest, a lockfile entry and a build step of its own; the account kit's build already bundles shared's sources.
export { useCachedRead } from './use-cached-read.ts';
