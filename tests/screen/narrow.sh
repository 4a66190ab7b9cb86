#!/bin/sh
# memtop-test: beside others
# The process table on a narrow terminal: at 80x24 COMMAND keeps 35 columns, so two
# processes whose command lines share their first 15 characters are told apart, and USER
# stays while a column that reads zero on every row goes; at 60x20 COMMAND keeps 26. Right
# scrolls the commands' text (PID and the other columns stay, the rest of a command line
# comes into view), Left scrolls it back.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
a= b=
trap '[ -n "$a" ] && kill $a $b 2>/dev/null; tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# two processes: "alloc_child 1 0 " then their own marker, the same 15 characters first
: >"$tmp/a" && : >"$tmp/b"
"$HELPERS/alloc_child" 1 0 "na$$-one" >"$tmp/a" &
a=$!
"$HELPERS/alloc_child" 1 0 "nb$$-two" >"$tmp/b" &
b=$!
wait_ready "$tmp/a" && wait_ready "$tmp/b" || fail "alloc_child never got ready"

# row PID: the pid's line on screen, each "…" (a cell not known yet, a path shortened) one
# byte, "~", so that cut -c's bytes are the screen's columns; titles: the column titles'
# line
row() { screen_text | sed 's/…/~/g' | awk -v p="$1" '$1 == p'; }
titles() { screen_text | grep -E '^ *(PID|RSS|USER) |COMMAND$' | head -n 1; }
# the column COMMAND starts at, from the title line (1-based)
cmd_col() { titles | awk '{ print index($0, "COMMAND") }'; }

check_width() { # W H MIN_CMD [RUN]
	tm_start "$1" "$2" "${4:-$MEMTOP} -d 0.5 -p $a,$b"
	eventually $HANG sh -c "tmux -L '$TMUX_SOCK' capture-pane -p | awk '\$1 == $a || \$1 == $b' |
		grep -c . | grep -qx 2" || fail "$1x$2: the two children never appeared: $(screen_text)"
	c=$(cmd_col)
	[ -n "$c" ] && [ $((${1} - c + 1)) -ge "$3" ] ||
		fail "$1x$2: COMMAND has less than $3 columns: $(titles)"
	titles | grep -q "^ *PID " || fail "$1x$2: PID is not the first column: $(titles)"
	ra=$(row $a | cut -c"$c"-) rb=$(row $b | cut -c"$c"-)
	[ "$(printf %.15s "$ra")" = "$(printf %.15s "$rb")" ] ||
		fail "$1x$2: the commands do not share their first 15 characters: '$ra' '$rb'"
	echo "$1x$2: COMMAND from column $c: '$ra', '$rb'"
}
# each child's COMMAND holds the start of its own marker
told_apart() {
	case $ra in *" na"*) ;; *) fail "the first child's COMMAND is '$ra'" ;; esac
	case $rb in *" nb"*) ;; *) fail "the second child's COMMAND is '$rb'" ;; esac
}

# 100x30 and 200x60: COMMAND keeps at least 35 columns, PID first
check_width 200 60 35
tm_kill
check_width 100 30 35
tm_kill
check_width 80 24 35
told_apart
titles | grep -q " USER " || fail "80x24: USER is gone: $(titles)"

# Right scrolls the commands: PID and the titles stay, and the rest of the line comes
# into view until the whole of each marker shows; Left brings the line's start back
t0=$(titles) r0=$(row $a | cut -c"$c"-)
tm send-keys Right
scrolled() { [ "$(row $a | cut -c"$c"-)" != "$r0" ]; }
eventually $HANG scrolled || fail "Right did not scroll: $(row $a)"
[ "$(titles)" = "$t0" ] || fail "Right changed the titles: $(titles), were $t0"
cmd=$(tr '\0' ' ' </proc/$a/cmdline | sed 's/ $//')
n=0
until row $a | grep -qF -- "na$$-one"; do
	n=$((n + 1))
	[ $n -le 60 ] || fail "Right never showed the whole of '$cmd': $(screen_text)"
	tm send-keys Right
	sleep 0.1
done
row $a | grep -q "^ *$a " || fail "Right took PID away: $(row $a)"
echo "Right scrolled until 'na$$-one' showed whole, PID kept"
for i in $(seq 80); do tm send-keys Left; done
eventually $HANG sh -c "[ \"\$(tmux -L '$TMUX_SOCK' capture-pane -p | awk -v p=$a '\$1 == p' |
	sed 's/…/~/g' | cut -c$c-)\" = '$r0' ]" || fail "Left did not scroll back: $(row $a)"
tm_kill

# at 60 columns a column that reads zero on every row goes: -p shows only the two
# children, which do not swap once ready
idle_first() {
	for idle in SWAP SWIN/s STALL; do
		! titles | grep -q " $idle " || fail "$1: $idle, zero on every row, stays: $(titles)"
	done
	echo "$1: $(titles)"
}
check_width 60 20 26
idle_first 60x20
tm_kill

# the same as a user without privileges (no BPF), at 80x24 and 60x20
command -v setpriv >/dev/null || skip "needs setpriv"
nobody_turn
dir=$tmp/nobody
mkdir "$dir" && cp "$MEMTOP" "$dir/memtop" && chmod 755 "$tmp" "$dir" "$dir/memtop"
nobody="env ${ASAN_OPTIONS:+ASAN_OPTIONS=log_path=stderr:detect_leaks=1} ${UBSAN_OPTIONS:+UBSAN_OPTIONS=log_path=stderr:halt_on_error=1}"
nobody="$nobody setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all $dir/memtop"
check_width 80 24 35 "$nobody"
told_apart
tm_kill
check_width 60 20 26 "$nobody"
idle_first "60x20 as nobody"
