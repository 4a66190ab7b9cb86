#!/bin/sh
# Runs every benchmark bench/*.sh in turn (make bench). Benchmarks print figures; they are
# not tests. Exits non-zero if one of them failed, after running the others.
cd "$(dirname "$0")/.." || exit 1
status=0
for b in bench/*.sh; do
	[ "$b" = bench/run.sh ] && continue
	echo "== $b"
	sh "$b" || { echo "bench/run.sh: $b failed" >&2; status=1; }
	echo
done
exit $status
