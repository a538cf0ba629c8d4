#!/usr/bin/env bash
# `npm run bench`: the Gatehouse benchmark, on loopback, with bounded durations (about 5 minutes; 3 more with BENCH_PEERS=1).
# 1. ceilings of this machine: Bun + static JSON, Bun + postgres.js primary-key SELECT (pool 16, prepared);
# 2. the service on PostgreSQL (a fresh database, dropped at the end) and on PGlite (reference):
#    GET /users/me over many users' access tokens, the refresh grant, password sign-in and sign-up, and the peak RSS
#    while 500 sign-ins are in flight; raw Bun.password.verify and .hash throughput with the service's parameters
#    right before and after the sign-in and sign-up runs;
# 3. with BENCH_PEERS=1, the same sign-in and sign-up against Better Auth (bench/peers/);
# 4. a table with pass/fail per target of issues 2 and 16, printed and written to bench/results/latest.md.
# Knobs: BENCH_DURATION (10s), BENCH_CONNECTIONS (64), BENCH_USERS (2000), BENCH_SIGNIN_USERS (200),
# BENCH_BURST_DURATION (8s), BENCH_PGLITE=0 to skip the PGlite run, BENCH_POSTGRES=0 to skip the service on
# PostgreSQL (the DB ceiling still runs: the PGlite rows are divided by it), PGHOST/PGPORT/PGUSER for Postgres,
# BENCH_SERVICE_ENV="NAME=value ..." for extra settings of the service under test,
# BENCH_AUTH_ONLY=1 for password sign-in, sign-up and the RSS burst only (no ceilings, /users/me, refresh),
# BENCH_PEERS=1 to run the same sign-in and sign-up against Better Auth (bench/peers/) on the same PostgreSQL.
# `npm run bench:peers` = BENCH_PEERS=1 BENCH_AUTH_ONLY=1 BENCH_PGLITE=0.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUN=$ROOT/node_modules/.bin/bun
DURATION=${BENCH_DURATION:-10s}
CONN=${BENCH_CONNECTIONS:-64}
BURST_DURATION=${BENCH_BURST_DURATION:-8s}
# Users with sessions feed /users/me and the refresh grant only: an auth-only run seeds a few.
DEFAULT_USERS=2000; [ "${BENCH_AUTH_ONLY:-0}" != 1 ] || DEFAULT_USERS=20
export BENCH_USERS=${BENCH_USERS:-$DEFAULT_USERS} BENCH_SIGNIN_USERS=${BENCH_SIGNIN_USERS:-200}
PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
# Per run: two benches on one shared PostgreSQL (other worktrees) must not drop each other's database.
DB=gatehouse_bench_$$
DB_URL="postgres://$PGUSER@$PGHOST:$PGPORT/$DB"
TMP=$(mktemp -d /tmp/gatehouse-bench.XXXXXX)
export BENCH_LOAD_START="$(cut -d" " -f1-3 /proc/loadavg)"
RESULTS=$TMP/results.tsv
: > "$RESULTS"
PIDS=()
DB_CREATED=0

log() { printf '\033[1m[bench]\033[0m %s\n' "$*" >&2; }

stop_pid() {
  local pid=$1
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do stop_pid "$pid"; done
  if [ "$DB_CREATED" = 1 ]; then
    psql -h "$PGHOST" -p "$PGPORT" -U "$PGUSER" -qc "drop database if exists $DB with (force)" >/dev/null 2>&1 || true
  fi
  if [ "${PEER_DB_CREATED:-0}" = 1 ]; then
    psql -h "$PGHOST" -p "$PGPORT" -U "$PGUSER" -qc "drop database if exists $PEER_DB with (force)" >/dev/null 2>&1 || true
  fi
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- prerequisites -----------------------------------------------------------------------------------
if ! command -v wrk >/dev/null; then
  log "installing wrk"
  apt-get install -y wrk >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y wrk >/dev/null; }
fi
if ! psql -h "$PGHOST" -p "$PGPORT" -U "$PGUSER" -qtAc 'select 1' >/dev/null 2>&1; then
  log "PostgreSQL not reachable at $PGHOST:$PGPORT; trying pg_ctlcluster 15 main start"
  pg_ctlcluster 15 main start
fi
psql -h "$PGHOST" -p "$PGPORT" -U "$PGUSER" -qc "drop database if exists $DB with (force)" >/dev/null 2>&1 || true
psql -h "$PGHOST" -p "$PGPORT" -U "$PGUSER" -qc "create database $DB" >/dev/null
DB_CREATED=1

CLK_TCK=$(getconf CLK_TCK)
# utime + stime of a process, in clock ticks.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# utime + stime of the threads of process $1 that hash passwords (Bun's work pool, "Bun Pool N"), in clock ticks:
# the rest of the process's CPU is what competes with the hashing (JS thread, JIT, GC, allocator).
pool_ticks() {
  local t s=0 rest
  for t in /proc/"$1"/task/*; do
    [[ "$(cat "$t/comm" 2>/dev/null)" == "Bun Pool"* ]] || continue
    rest=$(sed 's/.*) //' "$t/stat" 2>/dev/null) || continue
    s=$((s + $(awk '{print $12 + $13}' <<<"$rest")))
  done
  echo "$s"
}
# utime + stime of the PostgreSQL backends connected to database $1, in clock ticks.
pg_ticks() {
  local p s=0
  for p in $(pgrep -f "^postgres: .* $1 " 2>/dev/null); do s=$((s + $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0))); done
  echo "$s"
}

# Waits (up to 20 s) until process $1 used under 2 CPU ticks in the last half second.
wait_idle() {
  local before after i
  for i in $(seq 40); do
    before=$(cpu_ticks "$1"); sleep 0.5; after=$(cpu_ticks "$1")
    [ $((after - before)) -lt 2 ] && return 0
  done
}

free_port() { "$BUN" -e 'const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } }); console.log(s.port); s.stop(true)'; }

# start_bg LOG READY_PATTERN CMD...: starts CMD in the background, waits for READY_PATTERN in LOG; sets BG_PID.
start_bg() {
  local logf=$1 pattern=$2; shift 2
  "$@" >"$logf" 2>&1 &
  BG_PID=$!
  PIDS+=("$BG_PID")
  for _ in $(seq 600); do
    grep -q "$pattern" "$logf" && return 0
    kill -0 "$BG_PID" 2>/dev/null || { cat "$logf" >&2; log "process exited before it was ready"; exit 1; }
    sleep 0.1
  done
  cat "$logf" >&2; log "timed out waiting for '$pattern'"; exit 1
}

# bench NAME URL SCRIPT [wrk options...]: a 2 s warm-up (skipped with WARMUP=0), then the measured run; appends
# NAME<TAB>JSON (plus the server's CPU time per request when SERVER_PID is set) to RESULTS.
bench() {
  local name=$1 url=$2 script=$3; shift 3
  [ "${WARMUP:-1}" = 0 ] || wrk -t1 -c"$CONN" -d2s -s "bench/$script" "$@" "$url" >/dev/null 2>&1 || true
  local cpu0=0 cpu1=0 pool0=0 pool1=0 pg0=0 pg1=0
  [ -z "${SERVER_PID:-}" ] || { cpu0=$(cpu_ticks "$SERVER_PID"); pool0=$(pool_ticks "$SERVER_PID"); pg0=$(pg_ticks "${SERVER_DB:-$DB}"); }
  local out
  out=$(wrk -t1 -c"$CONN" -d"$DURATION" --latency -s "bench/$script" "$@" "$url")
  local json
  [ -z "${SERVER_PID:-}" ] || { cpu1=$(cpu_ticks "$SERVER_PID"); pool1=$(pool_ticks "$SERVER_PID"); pg1=$(pg_ticks "${SERVER_DB:-$DB}"); }
  json=$(grep '^BENCH_JSON ' <<<"$out" | sed 's/^BENCH_JSON //')
  [ -n "$json" ] || { echo "$out" >&2; log "wrk produced no summary for $name"; exit 1; }
  if [ -n "${SERVER_PID:-}" ]; then
    json="${json%\}},\"cpu_ticks\":$((cpu1 - cpu0)),\"pool_ticks\":$((pool1 - pool0)),\"pg_ticks\":$((pg1 - pg0)),\"clk_tck\":$CLK_TCK}"
  fi
  printf '%s\t%s\n' "$name" "$json" >>"$RESULTS"
  log "$name: $json"
}

# raw_hash OP NAME WHEN: raw Bun.password.OP throughput (bench/verify.ts) with the service's parameters, as NAME.
raw_hash() {
  log "raw Bun.password.$1 (argon2id m=19456 t=2), $3"
  local json
  json=$(BENCH_OP=$1 BENCH_SECONDS=${DURATION%s} "$BUN" bench/verify.ts | sed -n 's/^BENCH_JSON //p')
  printf '%s\t%s\n' "$2" "$json" >>"$RESULTS"
  log "$2: $json"
}

# auth_workloads LABEL PID URL EMAILS SIGN_IN_SCRIPT SIGN_UP_SCRIPT: password sign-in and sign-up of a running
# server (Gatehouse, or a peer: bench/peers/), each bracketed by the raw hash it waits on.
# Raw verify right before and right after the sign-in run (raw hash around the sign-up run): each run is compared
# with the mean of its two, so a drift of the machine's speed during these 30 s (argon2id swings ±10% with what else
# the host runs) does not land on one side of the ratio only. A warm-up first (as for the other workloads: the
# measured run is the steady state, not the JIT compiling the path), then a wait until the requests wrk abandoned at
# its end are done, so they do not queue for the hashing slots in the measured run; and again after it, or the raw
# run after would share the CPU with them.
auth_workloads() {
  local label=$1 pid=$2 url=$3 emails=$4 sign_in=$5 sign_up=$6
  log "$label: sign-in warm-up"
  BENCH_EMAILS=$emails wrk -t1 -c"$CONN" -d3s --timeout 30s -s "bench/$sign_in" "$url" >/dev/null 2>&1 || true
  wait_idle "$pid"
  raw_hash verify "$label:verify" "before the sign-in run"
  WARMUP=0 SERVER_PID=$pid BENCH_EMAILS=$emails bench "$label:sign-in" "$url" "$sign_in" --timeout 30s
  wait_idle "$pid"
  raw_hash verify "$label:verify-after" "after the sign-in run"

  log "$label: sign-up warm-up"
  BENCH_SIGNUP_TAG=warm wrk -t1 -c"$CONN" -d3s --timeout 30s -s "bench/$sign_up" "$url" >/dev/null 2>&1 || true
  wait_idle "$pid"
  raw_hash hash "$label:hash" "before the sign-up run"
  BENCH_SIGNUP_TAG=run WARMUP=0 SERVER_PID=$pid bench "$label:sign-up" "$url" "$sign_up" --timeout 30s
  wait_idle "$pid"
  raw_hash hash "$label:hash-after" "after the sign-up run"
}

CEILING_PID=
if [ "${BENCH_AUTH_ONLY:-0}" != 1 ]; then
# --- ceilings ----------------------------------------------------------------------------------------
log "ceiling (a): Bun static JSON"
start_bg "$TMP/static.log" '^ready' env PORT="$(free_port)" "$BUN" bench/ceiling-static.ts
port=$(sed -n 's/^ready //p' "$TMP/static.log")
SERVER_PID=$BG_PID bench ceiling-static "http://127.0.0.1:$port/" static.lua
stop_pid "$BG_PID"

log "ceiling (b): Bun + postgres.js, primary-key SELECT (pool 16, prepared)"
start_bg "$TMP/db.log" '^ready' env PORT="$(free_port)" DATABASE_URL="$DB_URL" "$BUN" bench/ceiling-db.ts
CEILING_PID=$BG_PID
CEILING_URL="http://127.0.0.1:$(sed -n 's/^ready //p' "$TMP/db.log")/"
SERVER_PID=$CEILING_PID bench ceiling-db "$CEILING_URL" ceiling-db.lua
# The DB ceiling server stays up (idle) and is measured again right before each workload it is compared with:
# other load on a shared machine drifts over minutes, and a ratio of two runs minutes apart would show the drift.
ceiling_before() { SERVER_PID=$CEILING_PID bench "ceiling-db@$1" "$CEILING_URL" ceiling-db.lua; }
fi

# --- the service -------------------------------------------------------------------------------------
# run_service LABEL ENV...: starts the service, seeds a project, runs the three workloads and the RSS burst.
run_service() {
  local label=$1; shift
  local port logf out
  port=$(free_port)
  logf=$TMP/service-$label.log
  out=$TMP/seed-$label
  log "service on $label (port $port)"
  # Sign-in and sign-up rate limits are per IP, and every request here comes from 127.0.0.1: raise them (the checks
  # still run).
  # Production needs a strong server secret of the operator's (a fresh random one per run).
  start_bg "$logf" 'Gatehouse listening' env NODE_ENV=production GATEHOUSE_PROJECT_CREATION=open GATEHOUSE_OWNER_MFA_REQUIRED=false GATEHOUSE_SERVER_SECRET="$(head -c 32 /dev/urandom | base64)" GATEHOUSE_RATE_LIMITS=sign_in_ip=1000000/600,sign_in_account=1000000/600,sign_up_ip=1000000/600 PORT="$port" GATEHOUSE_ACCESS_TOKEN_LIFETIME_SECONDS=3600 ${BENCH_SERVICE_ENV:-} "$@" "$BUN" service/src/main.ts
  local pid=$BG_PID
  local url=http://127.0.0.1:$port
  # Production prints the internal project's random keys once, at first start.
  for _ in $(seq 50); do grep -q 'secret server key' "$logf" && break; sleep 0.1; done
  local pck ssk
  pck=$(sed -n 's/^ *publishable client key: *//p' "$logf")
  ssk=$(sed -n 's/^ *secret server key: *//p' "$logf")
  [ -n "$pck" ] && [ -n "$ssk" ] || { cat "$logf" >&2; log "no internal keys in the service log"; exit 1; }
  BENCH_URL=$url INTERNAL_PCK=$pck INTERNAL_SSK=$ssk BENCH_OUT=$out "$BUN" bench/seed.ts >&2
  # shellcheck disable=SC1091
  source "$out/env.sh"
  # After a bulk load an operator runs VACUUM ANALYZE (autovacuum would do it anyway, in the middle of a run).
  if [ "$label" = postgres ]; then
    psql -h "$PGHOST" -p "$PGPORT" -U "$PGUSER" -qc "vacuum analyze" -c "checkpoint" "$DB" >/dev/null
  fi
  if [ "${BENCH_AUTH_ONLY:-0}" != 1 ]; then
    ceiling_before "$label:users-me"
    SERVER_PID=$pid BENCH_TOKENS=$out/access.txt bench "$label:users-me" "$url" users-me.lua
    ceiling_before "$label:refresh"
    SERVER_PID=$pid BENCH_TOKENS=$out/refresh.txt bench "$label:refresh" "$url" refresh.lua
  fi

  auth_workloads "$label" "$pid" "$url" "$out/emails.txt" sign-in.lua sign-up.lua

  log "$label: 500 sign-ins in flight for $BURST_DURATION, sampling VmRSS"
  local rss_file=$TMP/rss-$label
  local conn_file=$TMP/conn-$label
  ( while kill -0 "$pid" 2>/dev/null; do awk '/^VmRSS/ {print $2}' "/proc/$pid/status" 2>/dev/null; sleep 0.05; done ) >"$rss_file" &
  local sampler=$!
  # Established connections to the service, to show that the 500 requests really were in flight together.
  ( while sleep 0.25; do ss -Htn state established "( sport = :$port )" 2>/dev/null | wc -l; done ) >"$conn_file" &
  local conn_sampler=$!
  local burst
  burst=$(BENCH_EMAILS=$out/emails.txt wrk -t1 -c500 -d"$BURST_DURATION" --timeout 60s --latency -s bench/sign-in.lua "$url" | sed -n 's/^BENCH_JSON //p')
  kill "$sampler" "$conn_sampler" 2>/dev/null || true; wait "$sampler" "$conn_sampler" 2>/dev/null || true
  local peak_kib peak_conn
  peak_kib=$(sort -n "$rss_file" | tail -1)
  peak_conn=$(sort -n "$conn_file" | tail -1)
  printf '%s\t%s\n' "$label:sign-in-500" "${burst%\}},\"peak_rss_kib\":${peak_kib:-0},\"peak_connections\":${peak_conn:-0}}" >>"$RESULTS"
  log "$label:sign-in-500: $burst, peak RSS $((${peak_kib:-0} / 1024)) MiB, up to ${peak_conn:-0} connections"
  stop_pid "$pid"
}

[ "${BENCH_POSTGRES:-1}" = 0 ] || run_service postgres DATABASE_URL="$DB_URL"
if [ "${BENCH_PGLITE:-1}" != 0 ]; then
  run_service pglite GATEHOUSE_DATA_DIR="$TMP/pglite"
fi

[ -z "$CEILING_PID" ] || stop_pid "$CEILING_PID"

# --- peers -------------------------------------------------------------------------------------------
# Better Auth on a fresh database of the same PostgreSQL, the same argon2id through its password hooks, installed
# into a temporary directory (never the repo's dependencies): bench/peers/better-auth.ts.
if [ "${BENCH_PEERS:-0}" = 1 ]; then
  PEER_DB=gatehouse_bench_peer_$$
  PEER_DIR=$TMP/peer-better-auth
  log "installing better-auth ${BENCH_BETTER_AUTH_VERSION:-1.7.25} and pg into $PEER_DIR"
  mkdir -p "$PEER_DIR"
  echo '{ "private": true, "type": "module" }' >"$PEER_DIR/package.json"
  npm install --prefix "$PEER_DIR" --no-audit --no-fund --loglevel=error "better-auth@${BENCH_BETTER_AUTH_VERSION:-1.7.25}" "pg@${BENCH_PG_VERSION:-8.23.1}" >&2
  cp bench/peers/better-auth.ts "$PEER_DIR/server.ts"
  psql -h "$PGHOST" -p "$PGPORT" -U "$PGUSER" -qc "drop database if exists $PEER_DB with (force)" >/dev/null 2>&1 || true
  psql -h "$PGHOST" -p "$PGPORT" -U "$PGUSER" -qc "create database $PEER_DB" >/dev/null
  PEER_DB_CREATED=1
  log "Better Auth on postgres"
  start_bg "$TMP/peer-better-auth.log" '^ready' env NODE_ENV=production PORT="$(free_port)" BENCH_OUT="$TMP/seed-better-auth" \
    DATABASE_URL="postgres://$PGUSER@$PGHOST:$PGPORT/$PEER_DB" "$BUN" "$PEER_DIR/server.ts"
  peer_pid=$BG_PID
  psql -h "$PGHOST" -p "$PGPORT" -U "$PGUSER" -qc "vacuum analyze" -c "checkpoint" "$PEER_DB" >/dev/null
  SERVER_DB=$PEER_DB BENCH_PASSWORD=bench-password-1 auth_workloads better-auth "$peer_pid" "http://127.0.0.1:$(sed -n 's/^ready //p' "$TMP/peer-better-auth.log")" \
    "$TMP/seed-better-auth/emails.txt" peers/better-auth-sign-in.lua peers/better-auth-sign-up.lua
  stop_pid "$peer_pid"
fi

# --- report ------------------------------------------------------------------------------------------
mkdir -p bench/results
export BENCH_DURATION=$DURATION BENCH_CONNECTIONS=$CONN
"$BUN" bench/report.ts "$RESULTS" bench/results/latest.md
