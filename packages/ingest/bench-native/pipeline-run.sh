#!/bin/bash
# pipeline-run.sh <file.json> <today|scaled|bin> <postgres url> <data directory>
# Runs ./pipeline beside `openssl dgst -sha256` of the same file, then prints the wall time and
# the CPU time the PostgreSQL server used (its postmaster and reaped backends, from /proc).
# NOSHA=1 leaves the hash out. See pipeline.cpp.
set -euo pipefail
file=$1 mode=$2 url=$3 pm=$(head -1 "$4/postmaster.pid")
cpu() { awk '{print ($14+$15+$16+$17)/100}' "/proc/$pm/stat"; }
psql -q "$url" -c "DROP TABLE IF EXISTS pi_x, pc_x, pa_x, pb_x"
sync; sleep 1
c0=$(cpu)
/usr/bin/time -f "pipeline: %e s wall, %U user %S sys, %M KB" ./pipeline "$file" "$url" "$mode" x &
[ -z "${NOSHA:-}" ] && /usr/bin/time -f "sha256: %e s wall, %U user %S sys" openssl dgst -sha256 "$file" >/dev/null &
wait
sleep 0.5 # let the postmaster reap the backends
echo "postgres CPU $(echo "$(cpu) - $c0" | bc) s"
psql -q "$url" -At -c "SELECT 'rates', (SELECT count(*) FROM pa_x) + (SELECT count(*) FROM pb_x), 'items', (SELECT count(*) FROM pi_x), 'codes', (SELECT count(*) FROM pc_x)"
