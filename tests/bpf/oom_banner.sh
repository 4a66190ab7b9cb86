#!/bin/sh
# The screen shows a live OOM kill as a banner that stays until acknowledged with 'a',
# and the OOM history ('o') lists it.
. "$(dirname "$0")/lib.inc"
need_bpf
trap 'tm_kill; cleanup' EXIT

name=memtop-banner-$$
memcg "$name" $((64 << 20))
tm_start 120 30 "$MEMTOP" -d 0.5
wait_for "Tasks" || fail "memtop did not start"
wait_for "BPF on" || fail "BPF not on in the header"
in_memcg "$HOG" 200
wait "$KID" 2>/dev/null
[ $? = 137 ] || fail "the child should have been OOM-killed"
wait_for "OOM kill: pid $KID (bpf_hog)" 10 || fail "no banner for pid $KID"
banner=$(screen_text | grep -F "OOM kill: pid $KID")
printf '%s\n' "$banner" | grep -qF "memcg /$name" || fail "banner lacks the memcg: $banner"
# the banner is drawn in the alert role (reverse or a background color)
tm capture-pane -e -p | grep -F "OOM kill: pid $KID" | grep -q "$(printf '\033')\[" ||
	fail "banner has no attributes"
sleep 1.2 # it stays across refreshes
screen_text | grep -qF "OOM kill: pid $KID" || fail "banner went away by itself"
tm send-keys a
wait_gone "OOM kill: pid $KID" || fail "'a' did not acknowledge the banner"
wait_for "BPF on" || fail "the BPF line did not come back"
tm send-keys o
wait_for "OOM kills, newest first" || fail "'o' did not open the history"
screen_text | grep -E "^[0-9:]+ +$KID +bpf_hog " | grep -qF "/$name" ||
	fail "history lacks pid $KID in /$name"
tm send-keys Escape
wait_for "Tasks" || fail "Esc did not return to the table"
echo "banner and history show pid $KID"
