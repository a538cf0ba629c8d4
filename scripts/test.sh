#!/usr/bin/env bash
# `npm test`: type-check every package, build the front ends, then run every test (shared, service, account kit,
# desktop)
# with bun test.
# The last line is "N passed, N failed". Pass --no-typecheck to skip tsc, paths to run a subset, and
# --leave-out=NAME.test.ts to leave a file out by its name. A file whose first line says "// Own CI step:" (the
# binary's test, the cluster test) runs only when named.
set -uo pipefail
cd "$(dirname "$0")/.."
BUN="node_modules/.bin/bun"

typecheck=1
paths=()
left_out=()
for arg in "$@"; do
  case "$arg" in
    --no-typecheck) typecheck=0 ;;
    --leave-out=*) left_out+=("${arg#--leave-out=}") ;;
    *) paths+=("$arg") ;;
  esac
done
[ ${#paths[@]} -eq 0 ] && paths=(shared/test service/test account-kit/test desktop/test)
# Files whose first line says "// Own CI step:" take minutes and run in a CI step of their own (.ci/run): a run over
# directories leaves them out; naming the file runs it.
for dir in "${paths[@]}"; do
  [ -d "$dir" ] || continue
  while read -r own; do left_out+=("$(basename "$own")"); done < <(find "$dir" -name '*.test.ts' -exec grep -l '^// Own CI step:' {} + 2>/dev/null)
done

# Browser tests drive Debian's Chromium (never a downloaded browser).
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing chromium from Debian for the browser tests..."
  (apt-get update -qq && apt-get install -y -qq chromium) >/dev/null 2>&1 || echo "warning: could not install chromium"
fi

failed_tc=0
if [ $typecheck = 1 ]; then
  # Two at a time (the machine's two cores; about 25 s of a minute saved), each one's output printed whole.
  echo "== tsc (shared, service, account kit, desktop)"
  tc_dir=$(mktemp -d)
  printf '%s\n' shared/tsconfig.json service/tsconfig.json account-kit/tsconfig.json account-kit/test/tsconfig.json \
    desktop/tsconfig.web.json desktop/tsconfig.node.json desktop/tsconfig.test.json |
    xargs -P 2 -I{} sh -c 'out="$1/$(echo "$2" | tr / _)"; node_modules/.bin/tsc --noEmit -p "$2" > "$out.log" 2>&1 || echo "$2" > "$out.failed"' _ "$tc_dir" {}
  cat "$tc_dir"/*.log
  if ls "$tc_dir"/*.failed >/dev/null 2>&1; then failed_tc=1; echo "type check failed in: $(cat "$tc_dir"/*.failed | tr '\n' ' ')"; fi
  rm -rf "$tc_dir"
fi

# The layering rules of docs/architecture.md (SQL only in repo/ and db/, HTTP only in http/ and routes/, routes call
# use cases, repo/ imports db/ and repo/ only, no import cycle).
failed_layers=0
echo "== check-layers"
node scripts/check-layers.mjs || failed_layers=1

# The front-end rules of CONTRIBUTING.md (check-front-end) and no runtime import cycle in shared/, account-kit/ and
# desktop/ (check-cycles).
failed_front=0
echo "== check-front-end, check-cycles"
node scripts/check-front-end.mjs || failed_front=1
node scripts/check-cycles.mjs || failed_front=1

# The front ends the browser tests open (built only when their sources changed).
node scripts/build-ui.mjs || failed_tc=1

echo "== bun test ${paths[*]}"
# The files run in GATEHOUSE_TEST_JOBS parallel worker processes (default 2; 1 runs them in one process), the slowest
# first by the durations in scripts/test-timings.json (refresh with GATEHOUSE_TEST_TIMINGS=update); --no-isolate keeps
# one module registry per worker, so a worker starts the shared service and browser once for all its files. On the
# two-core CI machine two workers took the run from 38 to 25 minutes (measured with other work loading the machine);
# three made service starts (PGlite's WASM) slow enough to time out.
jobs="${GATEHOUSE_TEST_JOBS:-2}"
# One bun test run over the given files; adds its counts to pass/fail (a crash without a summary counts as a failure).
pass=0; fail=0
failed_names=()
run_bun() {
  local log rc p f
  log=$(mktemp)
  "$BUN" test --timeout 60000 "$@" 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  p=$(grep -E '^ *[0-9]+ pass$' "$log" | tail -1 | grep -oE '[0-9]+' || echo 0)
  f=$(grep -E '^ *[0-9]+ fail$' "$log" | tail -1 | grep -oE '[0-9]+' || echo 0)
  if [ "$rc" != 0 ] && [ "${f:-0}" = 0 ]; then f=1; fi
  pass=$((pass + ${p:-0})); fail=$((fail + ${f:-0}))
  # Kept for the end of the run: a CI log is often read from its tail, far from where a failure was printed.
  mapfile -t -O "${#failed_names[@]}" failed_names < <(awk '/\.test\.tsx?:$/ { file = $0 } /^\(fail\) / && !seen[$0]++ { print $0 "  (" file ")" }' "$log")
  rm -f "$log"
}
if [ "$jobs" -gt 1 ]; then
  parallel_args=(--parallel="$jobs" --no-isolate --timings scripts/test-timings.json)
  [ "${GATEHOUSE_TEST_TIMINGS:-}" = update ] && parallel_args+=(--update-timings)
  # Files whose first lines say "// Runs alone:" run after the others, in one process with nothing beside them: their
  # timing is the point (a PostgreSQL server restarted 20 times under a write load), and a second worker's load changes
  # what they measure; or their own load would starve the other worker's files (a minute-long request flood).
  # The others keep the paths as given (bun orders and shares out their files by the timings; a run given the
  # file list instead put the heaviest browser files side by side and took several times longer).
  mapfile -t solo < <(find "${paths[@]}" -name '*.test.ts' -exec grep -l '^// Runs alone:' {} + 2>/dev/null | sort)
  for name in "${left_out[@]}"; do
    for i in "${!solo[@]}"; do [ "$(basename "${solo[$i]}")" = "$name" ] && unset 'solo[i]'; done
  done
  solo=("${solo[@]}")
  ignore_args=()
  for name in "${left_out[@]}"; do ignore_args+=(--path-ignore-patterns="**/$name"); done
  for f in "${solo[@]}"; do ignore_args+=(--path-ignore-patterns="**/$(basename "$f")"); done
  run_bun "${parallel_args[@]}" "${ignore_args[@]}" "${paths[@]}"
  [ ${#solo[@]} -gt 0 ] && run_bun "${solo[@]}"
else
  ignore_args=()
  for name in "${left_out[@]}"; do ignore_args+=(--path-ignore-patterns="**/$name"); done
  run_bun "${ignore_args[@]}" "${paths[@]}"
fi
if [ ${#failed_names[@]} -gt 0 ]; then
  echo "== failed tests"
  printf '%s\n' "${failed_names[@]}"
fi
if [ $failed_tc = 1 ]; then fail=$((fail + 1)); echo "type check failed (counted as one failure)"; fi
if [ $failed_layers = 1 ]; then fail=$((fail + 1)); echo "check-layers failed (counted as one failure)"; fi
if [ $failed_front = 1 ]; then fail=$((fail + 1)); echo "front-end checks failed (counted as one failure)"; fi
echo "${pass:-0} passed, ${fail:-0} failed"
[ "${fail:-0}" = 0 ]
