#!/bin/sh
# memtop-test: sanitized
# A recording made by an earlier memtop (tests/cli/golden/oom.rec: 8 refreshes, the
# cgroups, a memcg OOM kill) replays to the same bytes in every output: JSON, batch text
# and OpenMetrics, as tests/cli/golden/cases lists them (name, a tab, the flags). The
# expected outputs were printed by the memtop that made the recording; a change that
# alters an output on purpose writes them again (GOLDEN_WRITE=1 sh tests/cli/replay_golden.sh).
# memtop_build_info's revision, the replaying memtop's own git description, is compared
# as revision="".
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
dir="${TESTS:-$(dirname "$0")/..}/cli/golden"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
export TZ=UTC LC_ALL=C.UTF-8

n=0
while IFS='	' read -r name flags; do
	[ -n "$name" ] || continue
	# shellcheck disable=SC2086 # the flags are words
	"$MEMTOP" --replay "$dir/oom.rec" $flags >"$tmp/$name" 2>"$tmp/$name.err" ||
		fail "$name: memtop --replay $flags exited $?: $(head -c 300 "$tmp/$name.err")"
	sed -i 's/^\(memtop_build_info{.*,revision="\)[^"]*"/\1"/' "$tmp/$name"
	[ -s "$tmp/$name.err" ] && fail "$name: memtop said: $(head -c 300 "$tmp/$name.err")"
	if [ "${GOLDEN_WRITE:-0}" = 1 ]; then
		cp "$tmp/$name" "$dir/$name.out"
	elif ! cmp -s "$tmp/$name" "$dir/$name.out"; then
		diff "$dir/$name.out" "$tmp/$name" | head -n 20
		fail "$name: memtop --replay $flags differs from $name.out"
	fi
	n=$((n + 1))
done <"$dir/cases"
[ "$n" -ge 6 ] || fail "only $n cases read from $dir/cases"
echo "$n outputs of the recorded input equal to the recorded outputs"
