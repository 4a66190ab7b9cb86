#!/bin/sh
# memtop-test: beside others
# --columns +pss,uss: a child that touched a known amount gets the PSS and USS that its
# /proc/PID/smaps_rollup gives (Pss; Private_Clean + Private_Dirty). Without the right to
# read another user's memory map (not root), they are null, never a made-up 0.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
nobody_turn # it runs processes as nobody: the tests that count nobody's wait
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

mib=40
start_child $mib
rollup() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$child/smaps_rollup"; }

"$MEMTOP" --json -n 1 --columns +pss,uss -p "$child" >"$tmp/out" || fail "memtop exited $?"
pss=$(rollup Pss) uss=$(($(rollup Private_Clean) + $(rollup Private_Dirty)))
got_pss=$(jq '.processes[0].pss_kb' "$tmp/out") got_uss=$(jq '.processes[0].uss_kb' "$tmp/out")
echo "PSS: memtop $got_pss kB, smaps_rollup $pss kB; USS: memtop $got_uss kB, smaps_rollup $uss kB"
# shared library pages are split among their users, and memtop and awk map them too
# while they run: allow 48 kB, less than PSS - USS (the child's share of its shared
# pages, about 140 kB here) or RSS - PSS
close() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(a > 0 && d <= 48 && d >= -48) }'; }
close "$got_pss" "$pss" || fail "pss_kb $got_pss, smaps_rollup Pss $pss"
close "$got_uss" "$uss" ||
	fail "uss_kb $got_uss, smaps_rollup Private $uss"
[ "$got_uss" -ge $((mib * 1024)) ] || fail "uss_kb $got_uss is less than the $mib MiB the child wrote"

# the costly fields appear only when asked for
jq -e '.processes[0] | has("pss_kb") or has("uss_kb")' "$(
	"$MEMTOP" --json -n 1 -p "$child" >"$tmp/plain" && echo "$tmp/plain")" >/dev/null &&
	fail "pss_kb or uss_kb printed without --columns"

# not root: another user's smaps_rollup is not readable, so null, while statm figures stay
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$MEMTOP" --json -n 1 \
		--columns +pss,uss -p "$child" >"$tmp/nobody" || fail "memtop as nobody exited $?"
	jq -e '.processes[0] | .pss_kb == null and .uss_kb == null and .rss_kb > 0' \
		"$tmp/nobody" >/dev/null ||
		fail "as nobody: $(jq -c '.processes[0] | {rss_kb, pss_kb, uss_kb}' "$tmp/nobody")"
fi
