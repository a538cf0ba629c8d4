#!/usr/bin/env bash
# `npm run bench:scale:sized`: bench/scale.ts on a PostgreSQL cluster of its own, configured for the data it holds.
# The machine's cluster runs with PostgreSQL's defaults (shared_buffers 128 MB), and the 1M-user database is about
# 2.1 GB: there every request that touches a random user reads that user's pages from outside the buffers, which is
# most of what grows from 10k to 1M (bench/RESULTS.md, "DELETE /users/{id}: what grows"). An operator holding a
# million users sizes shared_buffers to the working set (PostgreSQL's own guidance: about a quarter of the RAM); this
# runs the same bench that way, so the two runs side by side tell the service's growth from the buffer cache's.
# The cluster (initdb in a temporary directory, owned by the `postgres` user, on its own port) is removed at the end;
# the machine's cluster is not touched.
# Knobs: BENCH_SHARED_BUFFERS (default 4GB), BENCH_PG_PORT (default 5499), and bench/scale.ts's own.
set -euo pipefail
cd "$(dirname "$0")/.."
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
PORT=${BENCH_PG_PORT:-5499}
DATA=$(mktemp -d /tmp/gatehouse-scale-pg.XXXXXX)
chown postgres "$DATA"
as_postgres() { if [ "$(id -un)" = postgres ]; then "$@"; else runuser -u postgres -- "$@"; fi; }
cleanup() {
  as_postgres "$PG_BIN/pg_ctl" -D "$DATA/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$DATA"
}
trap cleanup EXIT
as_postgres "$PG_BIN/initdb" -D "$DATA/data" -U postgres --auth=trust >/dev/null
cat >>"$DATA/data/postgresql.conf" <<CONF
port = $PORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$DATA'
shared_buffers = ${BENCH_SHARED_BUFFERS:-4GB}
effective_cache_size = 12GB
max_connections = 100
CONF
as_postgres "$PG_BIN/pg_ctl" -D "$DATA/data" -l "$DATA/log" -w start >/dev/null
echo "[bench] own cluster on 127.0.0.1:$PORT, shared_buffers ${BENCH_SHARED_BUFFERS:-4GB}" >&2
PGHOST=127.0.0.1 PGPORT=$PORT PGUSER=postgres GATEHOUSE_BENCH_SIZED=1 node_modules/.bin/bun bench/scale.ts
