#!/bin/sh
# memtop-test: sanitized
# cgroup v2 and v1 from their files' formats, on any kernel: memtop --no-bpf reads a tree the
# test writes (tests/cgroup_fake.inc: nested cgroups, "max" and v1's no-limit figure,
# memory.stat, memory.events, memory.pressure, swap, cgroup.procs listing the test's own
# sleeping children and memtop) through its test-only root MEMTOP_CGROUP_ROOT. JSON
# cgroups[] gives each cgroup the figures its files say (the subtree's processes and v1's
# OOM kills summed, v1 swap less the memory, null where a version has no figure);
# system.cgroup and batch's Lim: line give memtop's own cgroup's limit, or its nearest
# limited ancestor's, and none where no cgroup up the tree has one; a file rewritten while
# memtop runs (memory.current, memory.max set to "max") shows at a later refresh.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cgroup_fake.inc"
command -v jq >/dev/null || skip "needs jq"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
mt=
trap '[ -n "$mt" ] && kill "$mt" 2>/dev/null; fake_cg_cleanup; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

FIELDS='.path, .usage_kb, .limit_kb, .high_kb, .swap_kb, .swap_limit_kb, .anon_kb, .kernel_kb,
	.nprocs, .oom_kills_kernel, .psi_some_avg10'
for v in 2 1; do
	tree=$tmp/v$v
	fake_tree $v "$tree"
	fake_memtop $v "$tree" /memtop.scope --no-bpf --json --cgroups -n 2 -d 0.2 >"$tmp/json" 2>"$tmp/err" ||
		fail "v$v: memtop exited $?: $(cat "$tmp/err")"
	[ -s "$tmp/err" ] && fail "v$v: stderr: $(cat "$tmp/err")"
	# the second line: every figure read (the first as well, but for rates)
	tail -n 1 "$tmp/json" | jq -r ".cgroups[] | [$FIELDS] | map(. // \"null\") | join(\" \")" |
		sort >"$tmp/got"
	fake_expected $v | sort >"$tmp/want"
	diff "$tmp/want" "$tmp/got" >"$tmp/diff" ||
		fail "v$v: cgroups[] differ from the files (- files, + JSON):
$(cat "$tmp/diff")"
	echo "v$v: $(wc -l <"$tmp/got") cgroups as their files say"
	tail -n 1 "$tmp/json" | jq -e '.system.cgroup == {path: "/memtop.scope", usage_kb: 102400, limit_kb: 524288}' \
		>/dev/null || fail "v$v: system.cgroup: $(tail -n 1 "$tmp/json" | jq -c .system.cgroup)"

	# below the limited cgroup: its limit; in an unlimited branch: none
	fake_memtop $v "$tree" /memtop.scope/run --no-bpf --json -n 1 | jq -e \
		'.system.cgroup == {path: "/memtop.scope", usage_kb: 102400, limit_kb: 524288}' >/dev/null ||
		fail "v$v: from /memtop.scope/run, system.cgroup is not /memtop.scope's"
	fake_memtop $v "$tree" /work.slice/batch.service --no-bpf --json -n 1 |
		jq -e '.system | has("cgroup") | not' >/dev/null ||
		fail "v$v: system.cgroup in an unlimited branch"
	echo "v$v: system.cgroup /memtop.scope's from it and below it, none from /work.slice/batch.service"

	# batch: the Lim: line, and the cgroup table's row of the limited service
	fake_memtop $v "$tree" /memtop.scope --no-bpf -b --cgroups -n 1 -p $$ >"$tmp/batch" ||
		fail "v$v: memtop -b exited $?"
	grep -qx 'Lim:  Used 100M, Limit 512M, 19.5%, cgroup /memtop.scope' "$tmp/batch" ||
		fail "v$v: no Lim: line for /memtop.scope: $(grep -n '^Lim' "$tmp/batch")"
	awk '/^CGROUP / { for (i = 1; i <= NF; i++) col[$i] = i; next }
		col["USAGE"] && $1 == "/work.slice/app.service" {
			r = $(col["USAGE"]) " " $(col["LIMIT"]) " " $(col["PROCS"]) " " $(col["KOOM"]) }
		END { print r }' "$tmp/batch" >"$tmp/row"
	want="200M 256M 2 $([ $v = 2 ] && echo 3 || echo 2)"
	[ "$(cat "$tmp/row")" = "$want" ] ||
		fail "v$v: batch row of /work.slice/app.service: '$(cat "$tmp/row")', not '$want' (USAGE LIMIT PROCS KOOM)"
	echo "v$v: batch Lim: 100M of 512M; app.service $want"

	# files rewritten while memtop runs
	fake_memtop $v "$tree" /memtop.scope --no-bpf --json --cgroups -d 0.2 >"$tmp/live" 2>"$tmp/err" &
	mt=$!
	app=$tree/work.slice/app.service
	until [ "$(wc -l <"$tmp/live")" -ge 2 ]; do
		kill -0 $mt 2>/dev/null || fail "v$v: memtop exited: $(cat "$tmp/err")"
		sleep 0.1
	done
	if [ $v = 2 ]; then
		echo $((300 * M)) >"$app/memory.current"
		echo max >"$app/memory.max"
	else
		echo $((300 * M)) >"$app/memory.usage_in_bytes"
		echo "$V1_NOLIMIT" >"$app/memory.limit_in_bytes"
	fi
	seen() {
		tail -n 1 "$tmp/live" | jq -e '.cgroups[] | select(.path == "/work.slice/app.service") |
			.usage_kb == 307200 and .limit_kb == null' >/dev/null 2>&1
	}
	eventually 60 seen || fail "v$v: the rewritten files never showed: $(tail -n 1 "$tmp/live" |
		jq -c '.cgroups[] | select(.path == "/work.slice/app.service")')"
	kill $mt
	wait $mt 2>/dev/null
	mt=
	echo "v$v: memory.current rewritten to 300M and the limit removed: shown"
	fake_cg_cleanup
done
