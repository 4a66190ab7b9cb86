#!/bin/sh
# memtop-test: anywhere
# A cgroup's forecast to its OOM kill: scenario cg300kill (/cgfc, memory.max 300M: 4401
# grow_child grows 8 MiB/s beside its parent 4400 sh until the kill at ~37 s, a refresh
# every 2 s, tests/helpers/scenario_machine.c), replayed with --json and on the cgroup screen
# (C) one sample at a time. From the first refresh with 12 s of samples until the kill,
# JSON's limit_in_s is the truth, (limit - usage) / 8 MiB/s, within 1 % (or 0.05 s), and
# at every one of those refreshes the header says "/cgfc reaches its 300M limit in ~N s;
# victim 4401 (grow_child)", N that time in seconds, and the cgroup's row is in the alert
# role (red background in the default theme); before and from the kill, no forecast of
# it. The post-mortem of the kill (o, Enter) shows the cgroup's usage of its limit at the
# last refresh before the kill and both its processes. The real kernel's cgroup kill:
# bpf/oom_cgroup_before.sh.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
. "${TESTS:-$(dirname "$0")/..}/screen/replay.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"

scenario cg300kill
# a line a refresh to the first after the kill: "T SECS", SECS the truth's limit_in_s
# ("-": no forecast wanted: before 12 s, or from the kill)
jq -r '(.cgroups[] | select(.path == "/cgfc")) as $c |
	"\(.t) \(if .t < 12 or $c.limit_in_s == null then "-" else $c.limit_in_s end) \($c.oom_kills)"' \
	"$tmp/cg300kill.truth" | awk '{ print $1, $2 } $3 > 0 { exit }' >"$tmp/want"
last=$(wc -l <"$tmp/want")
killed=$(jq -s "[.[] | select(.kills | length > 0)][0].kills[0].pid" "$tmp/cg300kill.truth")
[ "$killed" = 4401 ] && [ "$last" -ge 15 ] || fail "scenario cg300kill kills '$killed' at sample $last"
before=$(jq -rs ".[$last - 2] | .cgroups[] | select(.path == \"/cgfc\") | \"\(.usage_kb) \(.limit_kb)\"" \
	"$tmp/cg300kill.truth")

# JSON, to the kill
jq -r '.cgroups[] | select(.path == "/cgfc") | .limit_in_s // "null"' "$tmp/cg300kill.json" |
	head -n "$last" | paste -d ' ' "$tmp/want" - | awk '
	$2 == "-" { if ($3 != "null") { print "t=" $1 ": limit_in_s " $3 ", want null"; bad = 1 } next }
	{ n++; d = $3 - $2; if (d < 0) d = -d
	  if ($3 == "null" || (d > 0.05 && d > $2 * 0.01)) { print "t=" $1 ": limit_in_s " $3 ", truth " $2; bad = 1 } }
	END { if (n < 10) { print "only " n " forecasts"; bad = 1 } exit bad }' >"$tmp/wrong" ||
	fail "JSON: $(head -5 "$tmp/wrong" | tr '\n' ' ')"

# the cgroup screen to the first sample after the kill: at each, the header's forecast of
# /cgfc and whether its row is drawn in the alert role
replay_start 160 40 cg300kill
tm send-keys C
wait_for "CGROUP " >/dev/null || fail "C did not open the cgroup screen"
replay_flags=-e
# from the first sample, and the one before the first forecast, on to the kill
first=$(awk '$2 != "-" { print NR; exit }' "$tmp/want")
replay_at 1
replay_to $((first - 1))
replay_each "" "$last"
# at each sample visited (screen.K): the header's line on /cgfc, and the role of its row (alert: a
# red background, 41, set before its name)
awk -v dir="$tmp" '
	function wrong(why) { print "t=" $1 ": " why; bad = 1 }
	{ line = "-"; role = "plain"; f = dir "/screen." NR; seen = 0
	  while ((getline l <f) > 0) {
		seen = 1
		if (l ~ /─ cgfc / && l ~ /\033\[([0-9]+;)*41(;[0-9]+)*m.*─ cgfc /) role = "alert"
		gsub(/\033\[[0-9;]*m/, "", l)
		if (line == "-" && index(l, "/cgfc reaches its")) line = l }
	  close(f) }
	!seen { next }
	$2 == "-" { if (line != "-") wrong(line " (no forecast wanted)"); next }
	line !~ /^\/cgfc reaches its 300M limit in ~[0-9]+ s; victim 4401 \(grow_child\)$/ {
		wrong(line); next }
	{ n = line; sub(/.*limit in ~/, "", n); n += 0; d = n - $2; if (d < 0) d = -d
	  if (d > 0.5 + $2 * 0.01) wrong(line ", truth " $2 " s")
	  else if (role != "alert") wrong("the row of /cgfc is not in the alert role")
	  else shown++ }
	END { print shown; exit bad }' "$tmp/want" >"$tmp/wrong" ||
	fail "the screen: $(head -5 "$tmp/wrong" | tr '\n' ' ')"
echo "the header's forecast and the row's alert at all $(cat "$tmp/wrong") refreshes from 12 s to the kill, and none after"

# the post-mortem of the kill: the cgroup's usage of its limit at the refresh before it,
# both its processes
tm send-keys o
wait_for "$killed grow_child" || fail "the OOM pane does not list the kill of $killed"
tm send-keys Enter
wait_for "post-mortem: $killed (grow_child)" || fail "Enter opened no post-mortem of $killed"
wait_for "Cgroup /cgfc:" || fail "the post-mortem shows no cgroup"
cl=$(screen_text | grep -o "Cgroup /cgfc: [^│|]*" | head -n 1)
echo "post-mortem: $cl"
set -- $before
use=$(fmt_kb "$1") lim=$(fmt_kb "$2")
pct=$(echo "$cl" | sed -n "s/^Cgroup \/cgfc: $use of $lim (\([0-9]*\) %).*/\1/p")
[ -n "$pct" ] || fail "not the usage $use of $lim before the kill: $cl"
awk -v p="$pct" -v u="$1" -v l="$2" 'BEGIN { d = p - 100 * u / l; exit !(d <= 0.5 && d >= -0.5) }' ||
	fail "$pct % is not $1 KiB of $2"
screen_text | sed -n '/the cgroup.s processes by growth (2 of 2)/,/^ *$/p' >"$tmp/procs"
for p in "4401 +grow_child" "4400 +sh"; do
	grep -Eq "^ *$p " "$tmp/procs" || fail "the post-mortem does not list $p among the cgroup's: $(screen_text)"
done
