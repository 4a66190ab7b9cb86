#!/bin/sh
# memtop-test: alone
# The users screen (L): a row per user, the largest PSS first (< sorts by USS, I inverts);
# nobody running three sleeps has COUNT 3 and the RSS smem -u gives it (within a tenth, the
# screen's rounding and what changed between the reads); the line above the titles counts
# the processes unread; \ leaves the users whose name holds the text; Enter on nobody shows
# only nobody's processes. Then the exited pane (X): a child that exited shows with its
# name. It runs alone: beside other tests their processes exited by the hundred a second,
# past the pane's page.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root (every process's smaps_rollup, runuser)"
command -v smem >/dev/null || skip "smem is not installed (apt-get install smem)"
command -v runuser >/dev/null || skip "runuser is not installed"
user=nobody
nobody_idle
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
kids=
trap 'for k in $kids; do kill "$k" 2>/dev/null; done; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

for i in 1 2 3; do
	runuser -u $user -- sleep 1000 &
	kids="$kids $!"
done
i=0
until [ "$(ps -u $user -o pid= | wc -l)" -eq 3 ]; do
	i=$((i + 1))
	[ $i -le 600 ] || fail "the three sleeps of $user never started"
	sleep 0.05
done
kids="$kids $(ps -u $user -o pid=)"

# start_tall: memtop on a tall terminal, its process table drawn (the exited pane lists
# newest first, and on a busy machine others' processes exit by the dozen in the second
# before the pane opens: a tall terminal holds them)
start_tall() {
	tm_start 120 250 "'$MEMTOP' -d 0.5 --no-bpf"
	wait_for "PID" || fail "no process table"
}

# ROW USER: the user's row on the users screen (USER COUNT SWAP USS PSS RSS)
row() { screen_text | awk -v u="$1" '/^USER +COUNT/ { t = 1; next } t && $1 == u'; }
# KiB of a size as the screen shows it (512K, 2.9M, 1.2G)
kib() { awk -v s="$1" 'BEGIN { v = s + 0; u = substr(s, length(s))
	printf "%d\n", v * (u == "M" ? 1024 : u == "G" ? 1048576 : 1) }'; }

start_tall
tm send-keys L
wait_for "USER                  COUNT   SWAP    USS    PSS    RSS" ||
	fail "L opened no users screen"
wait_for "PSS and USS (smaps_rollup) unread for" || fail "no line counts the unread processes"
i=0
until [ "$(row $user | awk '{ print $2 }')" = 3 ]; do
	i=$((i + 1))
	[ $i -le 600 ] || fail "no $user row of COUNT 3: $(screen_text)"
	sleep 0.1
done
next_refresh || fail "memtop did not refresh"
smem -u -H >"$tmp/smem1" || fail "smem -u failed"
row $user >"$tmp/row"
smem -u -H >"$tmp/smem2" || fail "smem -u failed"
got=$(kib "$(awk '{ print $6 }' "$tmp/row")")
a=$(awk -v u=$user '$1 == u { print $6 }' "$tmp/smem1")
b=$(awk -v u=$user '$1 == u { print $6 }' "$tmp/smem2")
awk -v g="$got" -v a="${a:-0}" -v b="${b:-0}" 'BEGIN {
	lo = a < b ? a : b; hi = a < b ? b : a
	if (g < lo * 0.9 || g > hi * 1.1) exit 1 }' ||
	fail "$user RSS on screen $got KiB, smem -u $a then $b: $(cat "$tmp/row")"
echo "$user: COUNT 3, RSS $got KiB (smem -u $a, $b)"

# the rows by PSS, the largest first
screen_text | awk '/^USER +COUNT/ { t = 1; next } t && NF == 6 { print $5 }' >"$tmp/pss"
for s in $(cat "$tmp/pss"); do kib "$s"; done >"$tmp/pss_kb"
sort -rn -c "$tmp/pss_kb" 2>/dev/null || fail "not by PSS: $(tr '\n' ' ' <"$tmp/pss")"
# < sorts by USS (the column to the left), I the other way
col_kb() { screen_text | awk -v c="$1" '/^USER +COUNT/ { t = 1; next } t && NF == 6 { print $c }' |
	while read -r s; do kib "$s"; done; }
tm send-keys '<'
uss_sorted() { col_kb 4 >"$tmp/uss_kb" && sort "$@" -c "$tmp/uss_kb" 2>/dev/null; }
eventually $HANG uss_sorted -rn || fail "< did not sort by USS: $(tr '\n' ' ' <"$tmp/uss_kb")"
tm send-keys I
eventually $HANG uss_sorted -n || fail "I did not invert: $(tr '\n' ' ' <"$tmp/uss_kb")"
tm send-keys I M

tm send-keys '\'
wait_for "Filter:" || fail "\\ opened no filter prompt"
tm send-keys -l "obod"
users_left() { screen_text | awk '/^USER +COUNT/ { t = 1; next } t && NF == 6 { print $1 }' >"$tmp/users" &&
	[ "$(cat "$tmp/users")" = $user ]; }
eventually $HANG users_left || fail "the filter left: $(tr '\n' ' ' <"$tmp/users")"
tm send-keys Enter Enter
wait_for "PID USER" || fail "Enter on $user did not go to the process table"
owners() { screen_text | awk '/^ +PID USER/ { t = 1; next } t && $1 ~ /^[0-9]+$/ { print $2 }' |
	sort -u >"$tmp/owners" && [ "$(cat "$tmp/owners")" = $user ]; }
eventually $HANG owners || fail "Enter on $user shows: $(tr '\n' ' ' <"$tmp/owners")"
tm_kill

# the exited pane: a child seen running, then gone, shows with its name
cp "$(command -v sleep)" "$tmp/bye_bye_child"
start_tall
"$tmp/bye_bye_child" 2 &
bye=$!
kids="$kids $bye"
next_refresh && next_refresh || fail "memtop did not refresh"
wait "$bye"
next_refresh && next_refresh || fail "memtop did not refresh"
tm send-keys X
wait_for "Exited processes" || fail "X opened no exited pane"
wait_for "LAST RSS" || fail "no titles on the exited pane"
listed() { screen_text | grep -E "^[0-9:]{8} +$bye bye_bye_child +root +[0-9.]+[KMG]\$" >/dev/null; }
eventually $HANG listed || fail "the exited pane does not list $bye bye_bye_child: $(screen_text)"
echo "the exited pane lists $bye bye_bye_child at row $(screen_text | grep -n " $bye bye_bye_child " | cut -d: -f1)"
tm send-keys Escape
wait_for "PID USER" || fail "Esc did not go back to the process table"
echo "users screen: counts, RSS as smem -u, by PSS, filtered, Enter; the exited pane lists the child"
