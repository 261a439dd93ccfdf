#!/usr/bin/env bash
# What the database alone allows: replays the engine's exact happy-path SQL with pgbench (no Java)
# and the single-row UPDATE baseline, on a fresh database of a PostgreSQL server, and prints the
# efficiency ceiling that the SQL itself sets. The database runs with synchronous_commit=on, as a
# payment engine must; -a measures it with synchronous_commit=off instead (an extra, labelled so in
# the output). Usage:
#   bench/pgbench-ceiling.sh [-c CLIENTS] [-T SECONDS] [-a]      (server: PGHOST/PGPORT/PGUSER, default 127.0.0.1:5432 postgres)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
clients=16; seconds=10; sync=on
while getopts "c:T:a" o; do case $o in c) clients=$OPTARG;; T) seconds=$OPTARG;; a) sync=off;; *) exit 2;; esac; done
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
db="clearway_pgbench_$$"
trap 'psql -qd postgres -c "DROP DATABASE IF EXISTS $db" >/dev/null 2>&1 || true' EXIT
psql -qd postgres -c "CREATE DATABASE $db" -c "ALTER DATABASE $db SET synchronous_commit = $sync" >/dev/null
shown=$(psql -Atqd "$db" -c "SHOW synchronous_commit")
psql -qd "$db" -v ON_ERROR_STOP=1 \
  -f "$here/../clearway-store/src/main/resources/db/migration/postgresql/V1__pay_flow.sql" >/dev/null
psql -qd "$db" -c "CREATE TABLE bench_account (id INT PRIMARY KEY, balance BIGINT NOT NULL)" \
  -c "INSERT INTO bench_account SELECT g, 0 FROM generate_series(1, 100000) g" -c "VACUUM ANALYZE" >/dev/null
tps() { pgbench -n -M prepared -c "$clients" -j 2 -T "$seconds" -f "$1" "$db" 2>/dev/null | awk '/^tps/ {print $3}'; }
payments=$(tps "$here/pgbench/payment.sql")
baseline=$(tps "$here/pgbench/baseline.sql")
awk -v p="$payments" -v b="$baseline" -v c="$clients" -v s="$shown" 'BEGIN {
  printf "synchronous_commit                     %s%s\n", s, (s == "on" ? "" : "   (extra: not how the engine runs)")
  printf "clients                                %d\n", c
  printf "SQL-only payments/s (4 commits each)   %.0f\n", p
  printf "baseline single-row UPDATE commits/s   %.0f\n", b
  printf "efficiency ceiling of the SQL alone    %.3f\n", p * 4 / b
}'
