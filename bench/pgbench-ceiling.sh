#!/usr/bin/env bash
# What the database alone allows: replays the engine's exact happy-path SQL with pgbench (no Java)
# for the schema before the hot-row split (migrations below V31, statements of
# bench/pgbench/payment-v30.sql) and for the current schema (every migration, statements of
# bench/pgbench/payment.sql), each on a fresh database of the same server, synchronous_commit=on,
# same clients and duration, alternating old and new ROUNDS times (default 3). Prints each round's
# payments/s of both and their ratio, then the median of the rounds' ratios (the figure: a round's
# two legs run a few seconds apart, so they share the machine's load), and over all rounds:
# payments/s, commits per payment and per second (the server's own count), WAL bytes per payment
# and the server's CPU ms per payment (all PostgreSQL processes, when the server runs on this
# machine; other activity on the server counts too). Before any leg runs, each database's
# synchronous_commit is read back from a session of its own, and the run stops if they differ.
# With -g G (default 4; 0: off), a third leg replays the current schema as the engine writes under
# contention: its workers' transitions of several flows share one statement and one commit (group
# commit, at most 2 groups in flight); each pgbench transaction creates G payments, one statement
# each, then moves the G flows PAYING -> PAYED in one statement and PAYED -> BIZ_SUCCESS in
# another (bench/pgbench/payment.sql's statements over G ids). Its payments/s count G per
# transaction; its ratio to the schema before the split is printed apart. After the CHECKPOINT that
# starts each leg, 2 s of the same leg run untimed, so the first writes of the hottest pages (the
# full-page images every page gets once after a checkpoint) are not charged to a 10 s leg alone.
# With -e JAR (the lab jar, clearway-lab/target/clearway.jar), each round also runs the engine
# itself on a third fresh database of the same server (`bench --jdbc-url ... --payments PAYMENTS
# --concurrency CLIENTS --no-scanner --warmup WARMUP --json`: in-process simulators, the same happy
# path; PAYMENTS 6,000 and WARMUP 10 s by default, so the measured payments run in a JVM whose
# compilers are done, as the replay's server is warm) and prints its payments/s, its commits per
# payment, engine / SQL-only (current): how close the engine comes to the ceiling its own SQL sets,
# and, over the measured payments only, the server's CPU ms per payment (to compare with the
# current replay's) and the engine JVM's.
# Every leg runs prepared (-M prepared: parsed once per connection, a generic plan after 5 custom
# ones), as pgjdbc runs the engine's statements, and binds what the engine binds in a transition's
# CAS (expected status, version and lease, taken from the row the previous statement returned; the
# grouped leg from the first flow's and then from its first transition's rows): with them written as
# literals the planner may serve the CAS from the due index and walk its dead entries, which the
# engine's plan never does (bench/pgbench/payment.sql's header).
# Usage:
#   bench/pgbench-ceiling.sh [-c CLIENTS] [-T SECONDS] [-r ROUNDS] [-g G] [-s on|off] [-x EXTRA_SQL_FOR_NEW]
#                            [-e JAR] [-p PAYMENTS] [-w WARMUP_SECONDS]
#   (-s off: synchronous_commit=off instead, for a figure labelled as such)
#   (server: PGHOST/PGPORT/PGUSER, default 127.0.0.1:5432 postgres)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
migrations="$here/../clearway-store/src/main/resources/db/migration/postgresql"
clients=16; seconds=10; rounds=3; group=4; extra=""; sync=on; jar=""; payments=6000; warmup=10
while getopts "c:T:r:g:s:x:e:p:w:" o; do
  case $o in
    c) clients=$OPTARG;; T) seconds=$OPTARG;; r) rounds=$OPTARG;; s) sync=$OPTARG;; x) extra=$OPTARG;;
    e) jar=$OPTARG;; p) payments=$OPTARG;; g) group=$OPTARG;; w) warmup=$OPTARG;; *) exit 2;;
  esac
done
export PGHOST=${PGHOST:-127.0.0.1} PGPORT=${PGPORT:-5432} PGUSER=${PGUSER:-postgres}
old="clearway_pgbench_old_$$"; new="clearway_pgbench_new_$$"; engine="clearway_pgbench_engine_$$"
trap 'rm -f "${grouped:-}"; for d in $old $new $engine; do psql -qd postgres -c "DROP DATABASE IF EXISTS $d" >/dev/null 2>&1 || true; done' EXIT
version() { basename "$1" | sed -E 's/^V([0-9]+).*/\1/'; }
create() { # database, highest major version to apply
  psql -qd postgres -c "CREATE DATABASE $1" -c "ALTER DATABASE $1 SET synchronous_commit = $sync" >/dev/null
  for f in $(ls "$migrations"/V*.sql | sort -V); do
    if [ "$(version "$f")" -le "$2" ]; then psql -qd "$1" -v ON_ERROR_STOP=1 -f "$f" >/dev/null; fi
  done
}
create "$old" 30
create "$new" 999999
if [ -n "$extra" ]; then psql -qd "$new" -v ON_ERROR_STOP=1 -f "$extra" >/dev/null; fi
# CPU ticks of the server: its live processes plus the reaped ones (the postmaster's children).
pidfile="$(psql -Atd postgres -c 'SHOW data_directory' 2>/dev/null)/postmaster.pid"
postmaster=$(head -1 "$pidfile" 2>/dev/null || echo "")
ticks() {
  [ -n "$postmaster" ] && [ -r "/proc/$postmaster/stat" ] || { echo 0; return; }
  local t; t=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$postmaster/stat")
  for p in $(pgrep -P "$postmaster"); do t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0))); done
  echo "$t"
}
lsn() { psql -Atd postgres -c "SELECT pg_current_wal_lsn()"; }
commits() { psql -Atd postgres -c "SELECT pg_stat_clear_snapshot(); SELECT xact_commit FROM pg_stat_database WHERE datname = '$1'" | tail -1; }
# The same durability for both schemas, as their own sessions see it.
for d in $old $new; do
  got=$(psql -Atd "$d" -c "SHOW synchronous_commit")
  [ "$got" = "$sync" ] || { echo "database $d runs with synchronous_commit=$got, not $sync" >&2; exit 1; }
done
# One run: prints "payments/s payments walBytes cpuTicks commits".
run() {
  local a w c out
  psql -qd postgres -c "CHECKPOINT" >/dev/null
  pgbench -n -M prepared -c "$clients" -j 2 -T 2 -f "$1" "$2" >/dev/null 2>&1
  a=$(ticks); w=$(lsn); c=$(commits "$2")
  out=$(pgbench -n -M prepared -c "$clients" -j 2 -T "$seconds" -f "$1" "$2" 2>/dev/null)
  sleep 0.6 # the statistics collector's report of the last commits
  echo "$(awk '/^tps/ {print $3}' <<<"$out") $(awk '/actually processed/ {print $NF}' <<<"$out" | cut -d/ -f1)" \
    "$(psql -Atd postgres -c "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '$w')")" "$(($(ticks) - a))" \
    "$(($(commits "$2") - c))"
}
# A short warm-up fills each schema's tables, then statistics are taken, as autovacuum would.
warm() { pgbench -n -M prepared -c "$clients" -j 2 -T 3 -f "$1" "$2" >/dev/null 2>&1; psql -qd "$2" -c "VACUUM ANALYZE" >/dev/null; }
# The grouped replay: G creations, then each transition of bench/pgbench/payment.sql over the G ids.
grouped="$(mktemp --suffix=.sql)"
if [ "$group" -gt 0 ]; then
  src="$here/pgbench/payment.sql"; ids=""
  for ((k = 1; k <= group; k++)); do
    echo "\\set u$k random(1, 9000000000000000000)"
    grep '^WITH prior' "$src" | sed -E "s/:u([^a-z0-9_]|$)/:u$k\\1/g; s/\\\\gset$/\\\\gset p${k}_/"
    ids+="${ids:+, }:p${k}_id"
  done >"$grouped"
  grep '^WITH moved' "$src" | sed -E "s/^WITH moved AS \(UPDATE pay_flow_state SET/WITH w AS (SELECT unnest(ARRAY[$ids]::bigint[]) AS w_id), moved AS (UPDATE pay_flow_state SET/; s/ WHERE id = :id AND / FROM w WHERE id = w_id AND /; s/RETURNING \*\)/RETURNING pay_flow_state.*)/; s/\\\\gset$/\\\\aset/; 1s/:(status|version|lease_owner)\b/:p1_\1/g" >>"$grouped"
fi
warm "$here/pgbench/payment-v30.sql" "$old"; warm "$here/pgbench/payment.sql" "$new"
# One engine run on a fresh database (Flyway migrates it), its JVM warmed first by WARMUP seconds of
# untimed payments (`bench --warmup`) after the 500 untimed ones `bench` always makes: prints
# "engine payments/s commits serverTicks jvmTicks payments", the two CPU figures taken over the
# measured payments only (between the marks `bench` prints to stderr around them).
jticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }
engine_run() {
  local out fifo line pid json a=0 b=0 ja=0 jb=0
  psql -qd postgres -c "DROP DATABASE IF EXISTS $engine" -c "CREATE DATABASE $engine" \
    -c "ALTER DATABASE $engine SET synchronous_commit = $sync" >/dev/null 2>&1
  out="$(mktemp)"; fifo="$(mktemp -u)"; mkfifo "$fifo"
  java -jar "$jar" bench --jdbc-url "jdbc:postgresql://$PGHOST:$PGPORT/$engine?user=$PGUSER" \
    --payments "$payments" --concurrency "$clients" --no-scanner --warmup "$warmup" --json \
    >"$out" 2>"$fifo" &
  pid=$!
  while IFS= read -r line; do
    case $line in
      "bench: measured payments start"*) a=$(ticks); ja=$(jticks "$pid");;
      "bench: measured payments end"*) b=$(ticks); jb=$(jticks "$pid");;
    esac
  done <"$fifo"
  wait "$pid" || true
  json=$(tail -1 "$out"); rm -f "$out" "$fifo"
  echo "engine $(sed -E 's/.*"paymentsPerSec":([0-9.]+).*/\1/' <<<"$json") $(sed -E 's/.*"commitsPerPayment":([0-9.]+).*/\1/' <<<"$json")" \
    "$((b - a)) $((jb - ja)) $(sed -E 's/.*"converged":([0-9]+).*/\1/' <<<"$json")"
}
results=""
for ((i = 0; i < rounds; i++)); do
  results+="old $(run "$here/pgbench/payment-v30.sql" "$old")"$'\n'
  results+="new $(run "$here/pgbench/payment.sql" "$new")"$'\n'
  if [ "$group" -gt 0 ]; then results+="grouped $(run "$grouped" "$new") $group"$'\n'; fi
  if [ -n "$jar" ]; then results+="$(engine_run)"$'\n'; fi
done
hz=$(getconf CLK_TCK)
awk -v s="$sync" -v r="$rounds" -v c="$clients" -v t="$seconds" -v hz="$hz" '
  function median(a, k,   i, j, x) { # sorts a[1..k] in place
    for (i = 2; i <= k; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
    return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
  }
  NF == 6 && ($1 == "old" || $1 == "new") { tps[$1] += $2; n[$1] += $3; wal[$1] += $4; cpu[$1] += $5; com[$1] += $6; last[$1] = $2
    if ($1 == "new") lastcpu = $5 * 1000 / hz / $3 }
  NF == 6 && $1 == "new" { k++; ratio[k] = last["new"] / last["old"]
    printf "round %d: SQL-only payments/s before V31 %6.0f, current %6.0f, current/before %5.2f\n", k, last["old"], last["new"], ratio[k] }
  $1 == "grouped" { g = $7; gtps += $2 * g; gn += $3 * g; gwal += $4; gcpu += $5; gcom += $6
    printf "round %d: grouped replay (G = %d) payments/s %6.0f, grouped/before %5.2f\n", k, g, $2 * g, $2 * g / last["old"]
    gk++; gratio[gk] = $2 * g / last["old"] }
  $1 == "engine" { eps += $2; ecommits += $3; engines++; e[engines] = $2 / last["new"]; ecpu += $4; ejvm += $5; en += $6
    printf "round %d: engine payments/s %6.0f, engine / SQL-only (current) %5.2f, server CPU ms per payment %5.2f (current replay %5.2f), engine JVM CPU ms per payment %5.2f\n",
      k, $2, e[engines], ($6 > 0 ? $4 * 1000 / hz / $6 : 0), lastcpu, ($6 > 0 ? $5 * 1000 / hz / $6 : 0) }
  END {
    printf "clients / seconds / rounds              %d / %d / %d (synchronous_commit=%s in both databases)\n", c, t, r, s
    printf "                                        before V31   current   current/before\n"
    printf "SQL-only payments/s (all rounds)        %10.0f %9.0f %10.2f\n", tps["old"] / r, tps["new"] / r, tps["new"] / tps["old"]
    printf "SQL-only current/before, median of the rounds                  %10.2f\n", median(ratio, k)
    printf "commits per payment                     %10.2f %9.2f %10.2f\n", com["old"] / n["old"], com["new"] / n["new"], (com["new"] / n["new"]) / (com["old"] / n["old"])
    printf "commits/s                               %10.0f %9.0f %10.2f\n", com["old"] / (r * t), com["new"] / (r * t), com["new"] / com["old"]
    wo = wal["old"] / n["old"]; wn = wal["new"] / n["new"]
    if (gk > 0) {
      printf "grouped replay (G = %d) payments/s, all rounds      %9.0f %10.2f\n", g, gtps / r, gtps / tps["old"]
      printf "grouped replay / before, median of the rounds                  %10.2f\n", median(gratio, gk)
      printf "grouped replay commits per payment                %9.2f\n", gcom / gn
      if (gcpu > 0) printf "grouped replay server CPU ms per payment          %9.2f\n", gcpu * 1000 / hz / gn
    }
    printf "WAL bytes per payment                   %10.0f %9.0f %10.2f\n", wo, wn, wn / wo
    if (cpu["old"] > 0) {
      co = cpu["old"] * 1000 / hz / n["old"]; cn = cpu["new"] * 1000 / hz / n["new"]
      printf "server CPU ms per payment               %10.2f %9.2f %10.2f\n", co, cn, cn / co
    }
    if (engines > 0) {
      printf "engine payments/s (bench, same server)            %9.0f\n", eps / engines
      printf "engine commits per payment                        %9.2f\n", ecommits / engines
      if (en > 0 && cpu["new"] > 0) {
        printf "engine server CPU ms per payment                   %9.2f (current replay %.2f, ratio %.2f)\n", ecpu * 1000 / hz / en, cn, (ecpu / en) / (cpu["new"] / n["new"])
        printf "engine JVM CPU ms per payment                      %9.2f\n", ejvm * 1000 / hz / en
      }
      printf "engine / SQL-only (current), all rounds                      %10.2f\n", (eps / engines) / (tps["new"] / r)
      printf "engine / SQL-only (current), median of the rounds            %10.2f\n", median(e, engines)
    }
  }' <<<"$results"
