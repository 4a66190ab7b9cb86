#!/bin/sh
# memtop-test: anywhere
# A replay's OOM pane after its moves (tests/helpers/scenario_rec.c): the kills listed are
# those of the recording up to the sample shown (by its --json replay's events), and Enter
# opens the kill selected.
# - farkills, two kills in /batch 12.5 minutes apart: N, N (the second kill), o lists
#   both; { (the sample before it), o lists the first alone; }, o both again; Down
#   selects the first, Enter opens its post-mortem.
# - twokills, its kills 50 s apart: N, N, o, Down selects the first kill; { and } in the
#   pane keep it selected (the second kill leaves the list and comes back above it);
#   Enter opens it.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
. "${TESTS:-$(dirname "$0")/..}/screen/replay.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"

# kills NAME: "SAMPLE PID COMM" a line for each kill of the replay's JSON
kills() {
	jq -rn '[inputs] | to_entries[] | .key as $i |
		(.value.events // [])[] | select(.type == "oom_kill") | "\($i + 1) \(.pid) \(.comm)"' \
		"$tmp/$1.json"
}
# listed: the pids the OOM pane lists, newest first
listed() { screen_text | awk '/^TIME +PID / { on = 1; next } on && /^[0-9][0-9]:/ { print $2 }' | tr '\n' ' '; }
# pane_is WANT: the OOM pane lists WANT (pids, newest first) once it is drawn
pane_is() { [ "$(listed)" = "$1" ]; }

for name in farkills twokills; do
	scenario $name
	n=$(wc -l <"$tmp/$name.json")
	kills $name >"$tmp/$name.kills"
	[ "$(wc -l <"$tmp/$name.kills")" = 2 ] || fail "$name: the replay's JSON has not two kills: $(cat "$tmp/$name.kills")"
	read -r at1 pid1 comm1 <<-EOF
		$(sed -n 1p "$tmp/$name.kills")
	EOF
	read -r at2 pid2 comm2 <<-EOF
		$(sed -n 2p "$tmp/$name.kills")
	EOF
	replay_start 160 40 $name
	tm send-keys N
	wait_for "REPLAY $at1/$n" || fail "$name: N did not go to the first kill's sample $at1"
	tm send-keys N
	wait_for "REPLAY $at2/$n" || fail "$name: N did not go to the second kill's sample $at2"
	tm send-keys o
	wait_for "OOM kills, newest first" || fail "$name: o opened no OOM pane"
	eventually 5 pane_is "$pid2 $pid1 " || fail "$name: at sample $at2 the pane lists '$(listed)', not '$pid2 $pid1 '"
	if [ $name = farkills ]; then # the moves on the process table, o after each
		tm send-keys q '{'
		wait_for "REPLAY $((at2 - 1))/$n" || fail "$name: { did not step back from sample $at2"
		tm send-keys o
		eventually 5 pane_is "$pid1 " || fail "$name: at sample $((at2 - 1)) the pane lists '$(listed)', not '$pid1 '"
		tm send-keys q '}'
		wait_for "REPLAY $at2/$n" || fail "$name: } did not come back to sample $at2"
		tm send-keys o
		eventually 5 pane_is "$pid2 $pid1 " || fail "$name: back at sample $at2 the pane lists '$(listed)'"
		tm send-keys Down
	else # the moves in the pane, the first kill selected
		tm send-keys Down '{'
		eventually 5 pane_is "$pid1 " || fail "$name: after { the pane lists '$(listed)', not '$pid1 '"
		tm send-keys '}'
		eventually 5 pane_is "$pid2 $pid1 " || fail "$name: after } the pane lists '$(listed)'"
	fi
	tm send-keys Enter
	wait_for "OOM kill post-mortem" || fail "$name: Enter opened no post-mortem"
	wait_for "post-mortem: $pid1 ($comm1)" 5 ||
		fail "$name: Enter on the first kill opened: $(screen_text | head -n 1)"
	echo "$name: kills at samples $at1 ($pid1) and $at2 ($pid2) listed after N N { }; Enter opened $pid1's"
	tm_kill
done
