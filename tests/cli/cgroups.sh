#!/bin/sh
# memtop-test: alone
# --cgroups: two memory cgroups with 64 and 128 MiB limits, holding children that touch 30
# and 50 MiB. JSON cgroups[] gives each its usage within 2 % of the kernel's
# (memory.usage_in_bytes, read in the same second), its limit, one process and every key of
# the cgroup column table (limit_kb null where unlimited); the batch text's cgroup table,
# after the processes', the same. Without --cgroups neither has cgroups.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/memcg.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'cg_cleanup; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
need_memcg

tag=cgcli$$
cg_make "memtop-$tag-a" $((64 << 20))
a_dir=$cg_dir a_path=$cg_path
cg_make "memtop-$tag-b" $((128 << 20))
b_dir=$cg_dir b_path=$cg_path
cg_child "$a_dir" 30 a
cg_child "$b_dir" 50 b

# within2 GOT WANT: GOT is within 2 % of WANT
within2() { awk -v g="$1" -v w="$2" 'BEGIN { d = g - w; exit !(w > 0 && (d < 0 ? -d : d) <= w * 0.02) }'; }

"$MEMTOP" --cgroups --json -n 1 -d 0.2 >"$tmp/json" || fail "memtop --cgroups --json exited $?"
a_kb=$(($(cg_usage "$a_dir") / 1024)) b_kb=$(($(cg_usage "$b_dir") / 1024))
cg() { jq -c --arg p "$1" '.cgroups[] | select(.path == $p)' "$tmp/json"; }
for x in "a $a_path $a_kb 65536 30" "b $b_path $b_kb 131072 50"; do
	set -- $x
	row=$(cg "$2")
	[ -n "$row" ] || fail "JSON has no cgroup $2: $(jq -c '[.cgroups[].path]' "$tmp/json")"
	usage=$(echo "$row" | jq .usage_kb)
	within2 "$usage" "$3" || fail "$2: usage_kb $usage, the kernel says $3 KiB"
	[ "$(echo "$row" | jq .limit_kb)" = "$4" ] || fail "$2: limit_kb $(echo "$row" | jq .limit_kb), not $4"
	[ "$(echo "$row" | jq .nprocs)" = 1 ] || fail "$2: nprocs $(echo "$row" | jq .nprocs), not 1"
	anon=$(echo "$row" | jq .anon_kb)
	[ "$anon" -ge $(($5 * 1024 * 98 / 100)) ] && [ "$anon" -le "$usage" ] ||
		fail "$2: anon_kb $anon for a child touching $5 MiB (usage $usage)"
	[ "$(echo "$row" | jq .removed)" = false ] || fail "$2: removed is not false"
	echo "$2: usage_kb $usage (kernel $3), limit_kb $4, nprocs 1, anon_kb $anon"
done
# every key doc/cgroups.md lists, and those of the whole column table
for k in path usage_kb limit_kb high_kb low_kb min_kb usage_pct anon_kb file_kb kernel_kb \
	swap_kb swap_limit_kb nprocs oom_kills oom_kills_kernel reclaim_stall_us_per_s \
	refaults_per_s psi_some_avg10 psi_full_avg10 removed; do
	cg "$a_path" | jq -e --arg k "$k" 'has($k)' >/dev/null || fail "cgroups[] lacks $k: $(cg "$a_path")"
done
pct=$(cg "$a_path" | jq .usage_pct)
awk -v p="$pct" -v u="$(cg "$a_path" | jq .usage_kb)" 'BEGIN { d = p - u / 655.36; exit !(d < 0.01 && d > -0.01) }' ||
	fail "usage_pct $pct is not usage_kb of 64 MiB"
[ "$(jq '.cgroups[] | select(.path == "/") | .limit_kb' "$tmp/json")" = null ] ||
	fail "the root cgroup's limit is not null: $(jq -c '.cgroups[] | select(.path == "/")' "$tmp/json")"
if [ "$CGLIMIT" = memory.limit_in_bytes ]; then # v1 has no memory.pressure, memory.high
	cg "$a_path" | jq -e '.psi_some_avg10 == null and .psi_full_avg10 == null and .high_kb == null' >/dev/null ||
		fail "v1: PSI or high not null: $(cg "$a_path")"
fi

# batch: the cgroup table after the process table, its columns by their titles
"$MEMTOP" --cgroups -b -n 1 -d 0.2 -p "$cg_pid" >"$tmp/batch" || fail "memtop --cgroups -b exited $?"
a_kb=$(($(cg_usage "$a_dir") / 1024)) b_kb=$(($(cg_usage "$b_dir") / 1024))
awk '/^ *PID USER/ { p = NR } /^CGROUP / { c = NR } END { exit !(p && c > p) }' "$tmp/batch" ||
	fail "batch: no cgroup table after the process table: $(cat "$tmp/batch")"
for x in "$a_path $a_kb 64M" "$b_path $b_kb 128M"; do
	set -- $x
	awk "$KIB_AWK"'
		/^CGROUP / { for (i = 1; i <= NF; i++) col[$i] = i; next }
		col["USAGE"] && $1 == p { u = kib($(col["USAGE"])); l = $(col["LIMIT"]); n = $(col["PROCS"]) }
		END {
			d = u - w
			if (d < 0) d = -d
			if (d > w * 0.02 + 512) { print p ": USAGE " u " KiB, the kernel says " w; exit 1 }
			if (l != lim || n != 1) { print p ": LIMIT " l ", PROCS " n; exit 1 }
			print p ": USAGE " u " KiB (kernel " w "), LIMIT " l ", PROCS " n
		}' p="$1" w="$2" lim="$3" "$tmp/batch" || fail "batch: $(grep -e '^CGROUP' -e "^$1 " "$tmp/batch")"
done

"$MEMTOP" --json -n 1 -d 0.2 | jq -e 'has("cgroups") | not' >/dev/null || fail "cgroups[] without --cgroups"
"$MEMTOP" -b -n 1 -d 0.2 | grep -q '^CGROUP ' && fail "a cgroup table without --cgroups"
echo "--cgroups: JSON and batch match the kernel's figures"
