#!/usr/bin/env bash
# What the database alone allows: replays the engine's exact happy-path SQL with pgbench (no Java),
# for the schema before the hot-row split (migrations below V31, statements of
# bench/pgbench/payment-v30.sql) and for the current schema (every migration, statements of
# bench/pgbench/payment.sql), each on a fresh database of the same server, with
# synchronous_commit=on, the same clients and the same duration, alternating old and new ROUNDS
# times, and prints the payments/s of each and their ratio. Usage:
#   bench/pgbench-ceiling.sh [-c CLIENTS] [-T SECONDS] [-r ROUNDS] [-x EXTRA_SQL_FOR_NEW]
#   (server: PGHOST/PGPORT/PGUSER, default 127.0.0.1:5432 postgres)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
migrations="$here/../clearway-store/src/main/resources/db/migration/postgresql"
clients=16; seconds=10; rounds=1; extra=""
while getopts "c:T:r:x:" o; do
  case $o in c) clients=$OPTARG;; T) seconds=$OPTARG;; r) rounds=$OPTARG;; x) extra=$OPTARG;; *) exit 2;; esac
done
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
old="clearway_pgbench_old_$$"; new="clearway_pgbench_new_$$"
trap 'for d in $old $new; do psql -qd postgres -c "DROP DATABASE IF EXISTS $d" >/dev/null 2>&1 || true; done' EXIT
version() { basename "$1" | sed -E 's/^V([0-9]+).*/\1/'; }
create() { # database, highest major version to apply
  psql -qd postgres -c "CREATE DATABASE $1" -c "ALTER DATABASE $1 SET synchronous_commit = on" >/dev/null
  for f in $(ls "$migrations"/V*.sql | sort -V); do
    [ "$(version "$f")" -le "$2" ] && psql -qd "$1" -v ON_ERROR_STOP=1 -f "$f" >/dev/null
  done
  psql -qd "$1" -c "VACUUM ANALYZE" >/dev/null
}
create "$old" 30
create "$new" 999999
[ -n "$extra" ] && psql -qd "$new" -v ON_ERROR_STOP=1 -f "$extra" >/dev/null
tps() { pgbench -n -M prepared -c "$clients" -j 2 -T "$seconds" -f "$1" "$2" 2>/dev/null | awk '/^tps/ {print $3}'; }
# A short warm-up fills each schema's tables, then statistics are taken, as autovacuum would.
seconds_given=$seconds; seconds=3
tps "$here/pgbench/payment-v30.sql" "$old" >/dev/null; tps "$here/pgbench/payment.sql" "$new" >/dev/null
for d in $old $new; do psql -qd "$d" -c "VACUUM ANALYZE" -c "CHECKPOINT" >/dev/null; done
seconds=$seconds_given
o=0; n=0
for ((i = 0; i < rounds; i++)); do
  o=$(awk -v a="$o" -v b="$(tps "$here/pgbench/payment-v30.sql" "$old")" 'BEGIN {print a + b}')
  n=$(awk -v a="$n" -v b="$(tps "$here/pgbench/payment.sql" "$new")" 'BEGIN {print a + b}')
done
awk -v o="$o" -v n="$n" -v r="$rounds" -v c="$clients" -v t="$seconds" 'BEGIN {
  printf "clients / seconds / rounds             %d / %d / %d (synchronous_commit=on)\n", c, t, r
  printf "SQL-only payments/s, before V31        %.0f\n", o / r
  printf "SQL-only payments/s, current schema    %.0f\n", n / r
  printf "ratio current / before                 %.2f\n", n / o
}'
