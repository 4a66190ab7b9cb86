#!/bin/sh
# A process's share of a rate never exceeds the whole ("11282 pages/s swapped
# in, 11290/s of them by 5224 hog"): a rising swap-in storm, all of it by 5224 hog,
# whose count (BPF) is read 2 ms after the machine's (vmstat), as a live refresh reads
# them (scenario_rec swapshare). On every line the hog's swapin_per_s is at most the
# machine's pswpin_per_s, and from the second line (the first spans the time since boot)
# at least 99 % of it: the storm is the hog's; and where the verdict names the hog's
# share, it is at most the whole it names.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

scenario swapshare
judge swapshare "the hog's share of the swap-ins" '
	(map(select(.r.verdict.text | test("of them by 5224 hog"))) | length) as $named |
	if $named < 5 then "the verdict names the hog on \($named) lines only" else
	.[] | . as $l | .r.system.pswpin_per_s as $all |
	(.r.processes[] | select(.pid == 5224) | .swapin_per_s) as $hog |
	(.r.verdict.text | [match("([0-9]+) pages/s swapped in, ([0-9]+)/s of them")] | first) as $m |
	[(select($hog == null or $hog > $all) | "5224 hog \($hog)/s of \($all)/s"),
	 (select(.i > 1 and ($hog // 0) < 0.99 * $all) | "5224 hog \($hog)/s of \($all)/s"),
	 (select($m != null and ($m.captures[1].string | tonumber) >
				($m.captures[0].string | tonumber)) |
		"verdict \(.r.verdict.text)")] |
	.[] | "line \($l.i): \(.);" end'
echo "swapshare: the hog's swap-ins are never above the machine's"
