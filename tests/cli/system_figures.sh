#!/bin/sh
# The system figures of JSON and of the batch text come from one table: every figure the
# batch "Mem:" and "VM:" lines show is the JSON figure of the same refresh, in the table's
# units; used and cache are split from /proc/meminfo as free(1) does.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"

"$MEMTOP" --json -n 1 >"$tmp/json" || fail "memtop --json exited $?"
jq -e '.system | .mem_used_kb == ([.mem_total_kb - .mem_free_kb - .buffers_kb - .cache_kb, 0] | max)
	and .cache_kb >= .cached_kb and .swap_used_kb == .swap_total_kb - .swap_free_kb' "$tmp/json" \
	>/dev/null || fail "used, cache or swap used do not add up: $(jq -c .system "$tmp/json")"
cached=$(awk '$1 == "Cached:" { c = $2 } $1 == "SReclaimable:" { s = $2 } END { print c + s }' /proc/meminfo)
got=$(jq .system.cache_kb "$tmp/json")
[ $((got - cached)) -lt 65536 ] && [ $((cached - got)) -lt 65536 ] ||
	fail "cache_kb $got, /proc/meminfo Cached + SReclaimable $cached"

# the batch lines of one refresh against the JSON of the same (a -b and a --json run
# differ in time, so compare the sizes that move little: totals)
"$MEMTOP" -b -n 1 -p 1 >"$tmp/batch" || fail "memtop -b exited $?"
total=$(sed -n 's/^Mem: .*Total \([^,]*\).*/\1/p' "$tmp/batch")
want=$(fmt_kb "$(jq .system.mem_total_kb "$tmp/json")")
[ "$total" = "$want" ] || fail "batch Mem: Total '$total', JSON mem_total_kb gives '$want'"
for label in Avail Used Buffers Cache Free; do
	grep -q "^Mem: .*$label [0-9.]*[KMGT]" "$tmp/batch" || fail "batch Mem: lacks $label: $(grep '^Mem:' "$tmp/batch")"
done
for label in Faults/s Major/s Swap-in/s Swap-out/s; do
	grep -q "^VM: .*$label [0-9]" "$tmp/batch" || fail "batch VM: lacks $label: $(grep '^VM:' "$tmp/batch")"
done
grep -q "^Mem: .*Shmem [0-9.]*[KMGT]" "$tmp/batch" || fail "batch Mem: lacks Shmem: $(grep '^Mem:' "$tmp/batch")"

# Shmem: JSON against /proc/meminfo, OpenMetrics, a recording's replay and doc/columns.md
shmem=$(awk '$1 == "Shmem:" { print $2 }' /proc/meminfo)
got=$(jq .system.shmem_kb "$tmp/json")
[ $((got - shmem)) -lt 16384 ] && [ $((shmem - got)) -lt 16384 ] ||
	fail "shmem_kb $got, /proc/meminfo Shmem $shmem"
"$MEMTOP" --openmetrics >"$tmp/om" || fail "memtop --openmetrics exited $?"
bytes=$(sed -n 's/^memtop_memory_shmem_bytes \([0-9]*\)$/\1/p' "$tmp/om")
[ -n "$bytes" ] && [ $((bytes / 1024 - shmem)) -lt 16384 ] && [ $((shmem - bytes / 1024)) -lt 16384 ] ||
	fail "memtop_memory_shmem_bytes '$bytes', /proc/meminfo Shmem $shmem kB"
"$MEMTOP" --record "$tmp/rec" -n 1 >/dev/null || fail "memtop --record exited $?"
"$MEMTOP" --replay "$tmp/rec" --json >"$tmp/replayed" || fail "memtop --replay exited $?"
got=$(jq .system.shmem_kb "$tmp/replayed")
[ $((got - shmem)) -lt 16384 ] && [ $((shmem - got)) -lt 16384 ] ||
	fail "replayed shmem_kb $got, /proc/meminfo Shmem $shmem"
grep -q '^| `shmem_kb` |.*| `memtop_memory_shmem_bytes` |$' "$(dirname "$0")/../../doc/columns.md" ||
	fail "doc/columns.md lacks shmem_kb and its metric"
echo "JSON and batch system figures agree: $(grep '^Mem:' "$tmp/batch")"
