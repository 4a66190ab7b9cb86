#!/bin/sh
# memtop-test: beside others
# The command first, at 80x24: two "python3 /tmp/DIR/long-script-name-N.py" processes each
# show their script's name in COMMAND; Right scrolls the commands' text with PID kept on
# screen, Left scrolls it back; the detail screen's title names the script. Then scenario
# scripts (tests/helpers/scenario_machine.c: 4501 python3 long-script-name-1.py grows to
# /cgpy's OOM kill while a hog starts swapping in at 20 s, BPF on) replayed: the forecast's
# victim, the OOM banner and the post-mortem name the script, and at 80 columns the column
# titles stay the same string at every one of its 65 refreshes.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
. "${TESTS:-$(dirname "$0")/..}/screen/replay.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
a= b=
trap '[ -n "$a" ] && kill $a $b 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v python3 >/dev/null || skip "needs python3"
command -v jq >/dev/null || skip "needs jq"

# script N MIB: long-script-name-N.py holds MIB MiB, says "ready" and sleeps
script() {
	printf 'import time\nb = bytearray(%d << 20)\nprint("ready", flush=True)\ntime.sleep(600)\n' \
		"$2" >"$tmp/long-script-name-$1.py"
	python3 "$tmp/long-script-name-$1.py" >"$tmp/out$1" &
}
script 1 8
a=$!
script 2 16
b=$!
wait_ready "$tmp/out1" && wait_ready "$tmp/out2" || fail "the scripts never got ready"

titles() { screen_text | grep -E '^ *PID ' | head -n 1; }
row() { screen_text | awk -v p="$1" '$1 == p'; }
tm_start 80 24 "$MEMTOP -d 0.5 -p $a,$b"
eventually $HANG sh -c "tmux -L '$TMUX_SOCK' capture-pane -p | awk '\$1 == $a || \$1 == $b' |
	grep -c . | grep -qx 2" || fail "the two scripts never appeared: $(screen_text)"
c=$(titles | awk '{ print index($0, "COMMAND") }')
[ -n "$c" ] && [ $((80 - c + 1)) -ge 35 ] || fail "COMMAND has less than 35 columns: $(titles)"
for n in 1 2; do
	eval pid=\$$( [ $n = 1 ] && echo a || echo b)
	row $pid | cut -c"$c"- | grep -qF "long-script-name-$n.py" ||
		fail "the row of $pid does not name long-script-name-$n.py: $(row $pid)"
done
echo "80x24: $(row $a | cut -c"$c"-) | $(row $b | cut -c"$c"-)"

# Right: the command's text moves, PID and the other columns stay
before=$(row $a | cut -c"$c"-)
tm send-keys Right
eventually $HANG sh -c "[ \"\$(tmux -L '$TMUX_SOCK' capture-pane -p | awk -v p=$a '\$1 == p' |
	cut -c$c-)\" != '$before' ]" || fail "Right did not move the command: $(row $a)"
titles | grep -q '^ *PID ' || fail "Right took PID off the screen: $(titles)"
[ "$(titles | awk '{ print index($0, "COMMAND") }')" = "$c" ] || fail "Right moved the columns: $(titles)"
row $a | grep -q "^ *$a " || fail "Right took the row's PID away: $(row $a)"
echo "Right: $(row $a)"
tm send-keys Left
eventually $HANG sh -c "[ \"\$(tmux -L '$TMUX_SOCK' capture-pane -p | awk -v p=$a '\$1 == p' |
	cut -c$c-)\" = '$before' ]" || fail "Left did not scroll back: $(row $a)"

# the detail screen's title: the script, and its whole command line
sel=$(screen_text | awk -v p1="$a" -v p2="$b" '$1 == p1 || $1 == p2 { print $1; exit }')
n=1 && [ "$sel" = "$b" ] && n=2
tm send-keys Enter
wait_for "Process $sel (long-script-name-$n.py): where its memory goes" ||
	fail "the detail title does not name long-script-name-$n.py"
# below the title where it does not fit beside it: its lines joined
whole() { screen_text | sed -n 2,4p | tr -d '\n' | grep -qF "$(tr '\0' ' ' </proc/$sel/cmdline | sed 's/ $//')"; }
eventually $HANG whole || fail "the detail screen does not show the whole command: $(screen_text | head -n 4)"
tm_kill

# the replay: the forecast's victim by its script, at 120x40
scenario scripts
replay_start 120 40 scripts
replay_to 17
grep -q "^/cgpy reaches its 300M limit in ~[0-9]* s; victim 4501 (long-script-name-1.py)" \
	"$tmp/screen" || fail "the forecast's victim is not the script: $(head -n 8 "$tmp/screen")"
tm_kill

# at 80x24 the titles at every refresh, the OOM banner and the post-mortem
replay_start 80 24 scripts
first=$(grep -E '^ *PID ' "$tmp/screen")
same_titles() {
	now=$(grep -E '^ *PID ' "$tmp/screen")
	[ "$now" = "$first" ] || fail "sample $1: the titles '$now', at the first '$first'"
}
replay_each same_titles
echo "the titles at all $replay_n samples: $first"
grep -q "OOM kill: pid 4501 (long-script-name-1.py)" "$tmp/screen" ||
	fail "the OOM banner does not name the script: $(head -n 8 "$tmp/screen")"
tm send-keys o
wait_for "4501" >/dev/null || fail "o does not list the kill"
tm send-keys Enter
wait_for "victim: pid 4501 (long-script-name-1.py)" || fail "the post-mortem does not name the script"
