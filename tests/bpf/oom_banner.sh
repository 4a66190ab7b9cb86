#!/bin/sh
# The screen shows a live OOM kill as a banner that stays until acknowledged with 'y',
# and the OOM history ('o') lists it. At 80x24 and 60x20 the banner keeps its keys, and
# the kill's words it shows are whole; on the cgroup screen its 'o' opens the history too,
# and Esc returns there.
. "$(dirname "$0")/lib.inc"
need_bpf
tmpw=$(mktemp /tmp/memtop-banner.XXXXXX)
trap 'tm_kill; cleanup; rm -f "$tmpw" "$tmpw".*' EXIT

name=memtop-banner-$$
memcg "$name" $((64 << 20))
tm_start 120 30 "$MEMTOP" -d 0.5
wait_for "Tasks" || fail "memtop did not start"
wait_for "BPF on" || fail "BPF not on in the header"
in_memcg "$HOG" 200
wait "$KID" 2>/dev/null
[ $? = 137 ] || fail "the child should have been OOM-killed"
wait_for "OOM kill: pid $KID (bpf_hog)" || fail "no banner for pid $KID"
banner=$(banner_text)
printf '%s\n' "$banner" | grep -qF "memcg /$name" || fail "banner lacks the memcg: $banner"
# the banner is drawn in the alert role (reverse or a background color)
tm capture-pane -e -p | grep -E "^([^ ]* +)?OOM kill: pid $KID " | grep -q "$(printf '\033')\[" ||
	fail "banner has no attributes"
sleep 1.2 # it stays across refreshes
banner_text | grep -qF "OOM kill: pid $KID" || fail "banner went away by itself"
words() { printf '%s\n' "$1" | sed 's/  \[.*//' | tr -s ' ' '\n' | sort -u; }
keys='\[y( ack|: acknowledge), o( kills|: history|: kills)\]$'
banner_keys() { banner_text | grep -Eq "$keys"; }
for size in 80x24 60x20; do
	tm resize-window -x "${size%x*}" -y "${size#*x}"
	eventually $HANG banner_keys ||
		fail "$size: the banner lost its keys: $(banner_text)"
	narrow=$(banner_text)
	words "$banner" >"$tmpw.wide"
	words "$narrow" >"$tmpw.narrow"
	cut=$(comm -13 "$tmpw.wide" "$tmpw.narrow" | tr '\n' ' ')
	[ -z "$cut" ] || fail "$size: the banner cut words: $cut ($narrow)"
	echo "$size: $narrow"
done
tm resize-window -x 120 -y 80
# its o, on the cgroup screen: the history, and Esc back to the cgroups
tm send-keys C
wait_for "Cgroups " || fail "C did not open the cgroup screen"
screen_text | grep -qF "OOM kill: pid $KID" || fail "no banner on the cgroup screen"
tm send-keys o
wait_for "OOM kills, newest first" || fail "'o' did not open the history from the cgroup screen"
tm send-keys Escape
wait_for "Cgroups " || fail "Esc did not return to the cgroup screen"
tm send-keys C
wait_for "Tasks" || fail "C did not return to the processes"
tm send-keys y
wait_gone "OOM kill: pid $KID" || fail "'y' did not acknowledge the banner"
wait_for "BPF on" || fail "the BPF line did not come back"
tm send-keys o
wait_for "OOM kills, newest first" || fail "'o' did not open the history"
# newest first: other tests' kills since may come before it; a tall pane holds them
listed() { screen_text | grep -E "^[0-9:]+ +$KID +bpf_hog " | grep -qF "/$name"; }
eventually $HANG listed || fail "history lacks pid $KID in /$name: $(screen_text)"
tm send-keys Escape
wait_for "Tasks" || fail "Esc did not return to the table"
echo "banner and history show pid $KID"
