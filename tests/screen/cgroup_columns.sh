#!/bin/sh
# memtop-test: anywhere
# The cgroup screen's forecast columns: scenario cg40 (a cgroup growing 4 MB/s to its 200M
# limit, tests/helpers/scenario_rec.c) replayed on the C screen at 80x24 and 200x30, one
# sample at a time ("}"): the /leak row's LIMIT-IN is JSON's limit_in_s of the same sample
# (--replay --json --cgroups) as the screen writes seconds, "-" where JSON has none, and
# its GROW/min is JSON's growth_kb_per_min. f there opens the column menu listing every
# cgroup column but the path (the titles of doc/cgroups.md's generated table); Space on
# LIMIT-IN hides it from the table, and again shows it.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
. "${TESTS:-$(dirname "$0")/..}/screen/replay.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"
doc=${TESTS:-$(dirname "$0")/..}/../doc/cgroups.md

scenario cg40
n=$(wc -l <"$tmp/cg40.json")
# a line a sample: limit_in_s as the screen writes seconds (fmt_secs, src/base/text.c), and
# growth_kb_per_min in KiB, "-" for none
jq -r '.cgroups[] | select(.path == "/leak") | "\(.limit_in_s // "-") \(.growth_kb_per_min // "-")"' \
	"$tmp/cg40.json" | awk '{
		s = $1
		if (s == "-")
			;
		else if (s < 99.5)
			s = sprintf("%.0fs", s)
		else if (s < 5970)
			s = sprintf("%.0fm", s / 60)
		else if (s < 3.6e5)
			s = sprintf("%.0fh", s / 3600)
		else
			s = sprintf("%.0fd", s / 86400)
		print s, $2
	}' >"$tmp/want"
[ "$(wc -l <"$tmp/want")" = "$n" ] || fail "JSON has no /leak cgroup at each of its $n lines"
[ "$(grep -vc '^- ' "$tmp/want")" -ge 5 ] || fail "JSON gives fewer than 5 samples with a LIMIT-IN: $(cat "$tmp/want")"

# cell TITLE: the cell under TITLE in the row of leak on the sample's screen (the tree's
# lines are fields of their own before the name)
cell() {
	awk -v t="$1" '
		/^CGROUP / { for (i = 2; i <= NF; i++) if ($i == t) k = i - 1; next }
		k { for (j = 1; j <= NF; j++) if ($j == "leak") { print $(j + k); exit } }' "$tmp/screen"
}
# sample K: LIMIT-IN and GROW/min of sample K as JSON has them
sample() {
	want=$(sed -n "${1}p" "$tmp/want")
	lim=$(cell LIMIT-IN) grow=$(cell GROW/min)
	g=${want#* }
	[ "$g" = - ] || g=+$(fmt_kb "$g")
	[ "$lim" = "${want%% *}" ] || fail "$dims, sample $1: LIMIT-IN reads '$lim', JSON's limit_in_s '${want%% *}'"
	[ "$grow" = "$g" ] || fail "$dims, sample $1: GROW/min reads '$grow', JSON's growth '$g'"
	right=$((right + 1))
}

for size in "80 24" "200 30"; do
	set -- $size
	replay_start "$1" "$2" cg40
	tm send-keys C
	wait_for "Cgroups " || fail "$1x$2: C did not open the cgroup screen"
	wait_for "leak" || fail "$1x$2: no row of the cgroup leak"
	titles=$(screen_text | grep '^CGROUP ')
	for t in GROW/min LIMIT-IN; do
		case " $titles " in *" $t "*) ;; *) fail "$1x$2: the cgroup screen has no $t: $titles" ;; esac
	done
	dims=$1x$2 right=0
	replay_each sample
	echo "$1x$2: LIMIT-IN and GROW/min as JSON's at all $right samples (the last: $lim, $grow)"
	tm_kill
done

# f: the column menu of the cgroup table, each column but the path listed
tm_start 120 30 "'$MEMTOP' --replay '$tmp/cg40.rec'"
wait_for "REPLAY 1/$n" || fail "the replay did not start"
tm send-keys C
wait_for "Cgroups " || fail "C did not open the cgroup screen"
wait_for "LIMIT-IN" || fail "no LIMIT-IN on the cgroup screen"
tm send-keys f
wait_for "Cgroup columns" || fail "f on the cgroup screen opened no column menu: $(screen_text | tail -n 2)"
sed -n '/generated: cgcolumns/,/end generated/p' "$doc" | sed -n 's/^| `\([^`]*\)` |.*/\1/p' |
	grep -v '^CGROUP$' >"$tmp/titles"
[ "$(wc -l <"$tmp/titles")" -ge 10 ] || fail "no cgroup columns found in $doc"
listed=0
while read -r t; do
	screen_text | grep -qF "] $t " || fail "the cgroup column menu does not list $t: $(screen_text)"
	listed=$((listed + 1))
done <"$tmp/titles"
screen_text | grep -q '^\[x\] LIMIT-IN ' || fail "LIMIT-IN is not marked shown: $(screen_text | grep LIMIT-IN)"
# to LIMIT-IN, and Space
i=$(screen_text | awk '/^\[.\] / { n++ } /^\[.\] LIMIT-IN / { print n - 1; exit }')
while [ "$i" -gt 0 ]; do
	tm send-keys Down
	i=$((i - 1))
done
tm send-keys Space
wait_for "[ ] LIMIT-IN " || fail "Space did not hide LIMIT-IN: $(screen_text | grep LIMIT-IN)"
tm send-keys Escape
wait_for "Cgroups " || fail "Esc did not return to the cgroup screen: $(screen_text | head -n 3)"
wait_gone "LIMIT-IN" || fail "LIMIT-IN stays on the cgroup screen once hidden"
tm send-keys f
wait_for "[ ] LIMIT-IN " || fail "f did not reopen the cgroup column menu"
tm send-keys Space Escape
wait_for "Cgroups " || fail "Esc did not return to the cgroup screen"
wait_for "LIMIT-IN" || fail "LIMIT-IN is not shown again"
echo "f on the cgroup screen lists its $listed columns; Space hid LIMIT-IN and showed it again"
