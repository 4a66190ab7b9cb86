#!/bin/sh
# The cgroup screen (C) and the Lim meter from cgroup v2's and v1's file formats, on any
# kernel: memtop --no-bpf reads the tree tests/cgroup_fake.inc writes (MEMTOP_CGROUP_ROOT,
# its own cgroup /memtop.scope, 512M limit, 100M used, with its pid in cgroup.procs). The
# header's Lim meter shows 100M/512M; the cgroup screen names the hierarchy's version, draws
# the nested tree, and each row's USAGE, LIMIT ("max" where none), HIGH and PSI-S (v2 only),
# %LIM, SWAP, SWLIM, PROCS (the subtree's) and KOOM are what the files say.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cgroup_fake.inc"
locale -a | grep -qix 'c\.utf-\?8' || skip "no C.UTF-8 locale"
export LC_ALL=C.UTF-8 # the tree's lines
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; fake_cg_cleanup; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# the cell under TITLE in the row of cgroup NAME (the tree's lines are fields of their own
# before the name), from the screen in $tmp/screen
cell() {
	awk -v n="$1" -v t="$2" '
		/^CGROUP / { for (i = 2; i <= NF; i++) if ($i == t) k = i - 1; next }
		k { for (j = 1; j <= NF; j++) if ($j == n) { print $(j + k); exit } }' "$tmp/screen"
}

for v in 2 1; do
	tree=$tmp/v$v
	fake_tree $v "$tree"
	cat >"$tmp/run" <<-EOF
		echo \$\$ >>'$tree/memtop.scope/cgroup.procs'
		MEMTOP_CGROUP_ROOT=$v:'$tree' MEMTOP_CGROUP_SELF=/memtop.scope exec '$MEMTOP' --no-bpf -d 0.5
	EOF
	tm_start 160 40 "sh '$tmp/run'"
	wait_for "PID USER" || fail "v$v: memtop did not start"
	wait_for "100M/512M]" || fail "v$v: no Lim meter of 100M/512M"
	screen_text | sed -n 2p | grep -q '^Lim\[.*100M/512M\]$' || fail "v$v: line 2 is not the Lim meter: $(screen_text | sed -n 2p)"
	tm send-keys C
	wait_for "Hierarchy v$v" || fail "v$v: C did not show the cgroups of hierarchy v$v"
	wait_for "Cgroups 6, 6 shown" || fail "v$v: not the 6 cgroups of the tree"
	# name, then the cells as the files make them: USAGE LIMIT HIGH %LIM SWAP SWLIM PROCS
	# KOOM PSI-S (sizes in KiB, through memtop's own formatting; HIGH and PSI-S v2's alone)
	if [ $v = 2 ]; then
		cat <<-EOF
			/ - - - - - - 5 - 0.0
			work.slice 716800 max max - 10240 max 3 3 2.5
			batch.service 460800 max max - 6144 max 1 0 0.0
			app.service 204800 262144 245760 78.1 4096 102400 2 3 12.0
			memtop.scope 102400 524288 max 19.5 0 max 1 0 0.0
			run 61440 max max - 0 max 0 0 0.0
		EOF
	else
		cat <<-EOF
			/ 2048000 max x - 20480 max 5 3 x
			work.slice 716800 max x - 10240 max 3 3 x
			batch.service 460800 max x - 6144 max 1 1 x
			app.service 204800 262144 x 78.1 4096 102400 2 2 x
			memtop.scope 102400 524288 x 19.5 0 max 1 0 x
			run 61440 max x - 0 max 0 0 x
		EOF
	fi | awk "$FMT_KB_AWK"'{ for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/ && i != 5 && i != 8 && i != 9) $i = fmt_kb($i); print }' >"$tmp/want"
	# until a whole frame shows every row as wanted (10 s at most), then what differs
	rows() {
		screen_text >"$tmp/screen"
		while read -r name usage limit high pct swap swlim procs koom psi; do
			got="$(cell "$name" USAGE) $(cell "$name" LIMIT) $(cell "$name" HIGH) $(cell "$name" %LIM)"
			got="$got $(cell "$name" SWAP) $(cell "$name" SWLIM) $(cell "$name" PROCS) $(cell "$name" KOOM) $(cell "$name" PSI-S)"
			want="$usage $limit $([ "$high" = x ] || echo "$high ")$pct $swap $swlim $procs $koom$([ "$psi" = x ] || echo " $psi")"
			[ "$(echo $got)" = "$want" ] || { echo "$name: $(echo $got), not $want"; return 1; }
		done <"$tmp/want"
	}
	eventually $HANG rows >/dev/null || fail "v$v: rows differ from the files: $(rows)
$(cat "$tmp/screen")"
	grep -q '│  └─ app\.service ' "$tmp/screen" && grep -q '   └─ run ' "$tmp/screen" ||
		fail "v$v: no nested tree: $(grep -A7 '^CGROUP' "$tmp/screen")"
	if [ $v = 1 ]; then
		grep -Eq '^CGROUP .* (HIGH|PSI-S) ' "$tmp/screen" && fail "v1: HIGH or PSI-S shown: $(grep '^CGROUP' "$tmp/screen")"
	fi
	grep -A7 '^CGROUP' "$tmp/screen"
	tm_kill
	fake_cg_cleanup
done
