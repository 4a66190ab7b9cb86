#!/bin/sh
# memtop-test: long
# memtop-test: beside others
# memtop-test: timeout 300
# Every line written to fit: at 80x24 and 60x20, as root and as a user without privileges
# (BPF off, its reason long), the status line is whole "label value" pairs and the clock,
# the BPF line, the key bar and every line of the help (all its pages) hold only whole
# words: each word of theirs is one of the same line's words on a 200x60 terminal.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
nobody_turn # it runs processes as nobody: the tests that count nobody's wait
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# words FILE: its words without digits (figures change between refreshes), one a line,
# sorted and unique
words() { tr -d ",;:()[]" <"$1" | tr -s " " "\n" | grep . | grep -v "[0-9]" | sort -u; }
# settled FILE: the screen, once two reads 0.1 s apart are the same (a whole frame; 5 s at
# most), into FILE
settled() {
	screen_text >"$1"
	eventually 5 _same "$1"
}
# _same FILE: the screen 0.1 s on is FILE's text; else FILE takes it
_same() {
	sleep 0.1
	screen_text >"$1.now"
	cmp -s "$1.now" "$1" && return 0
	mv "$1.now" "$1"
	return 1
}
# help PREFIX: every line of the help, scrolled down by pages, into PREFIX.help: each page
# once drawn whole; the last one when NPage no longer changes the screen (within 2 s)
help() {
	tm send-keys h
	wait_for " - keys" || fail "$1: h did not open the help"
	settled "$tmp/page"
	sed '1d;$d' "$tmp/page" >"$1.help"
	for i in $(seq 40); do
		tm send-keys NPage
		changed_from "$tmp/page" || break
		settled "$tmp/page"
		sed '1d;$d' "$tmp/page" >>"$1.help"
	done
	screen_text | tail -n 1 >"$1.helpkeys"
	tm send-keys q
	wait_gone " - keys" || fail "$1: q did not leave the help"
}
# shot W H PREFIX RUN: memtop RUN at W x H; its status line, BPF line, key bar and help
shot() {
	tm_start "$1" "$2" "$4 -d 0.5"
	wait_for "F1Help" || fail "$1x$2: memtop did not start: $(screen_text)"
	next_refresh || fail "$1x$2: memtop does not refresh"
	# BPF loads after the first screen (slowly under ASan): its line says "loading…" till then
	wait_gone "BPF loading" 60 >/dev/null || fail "$1x$2: BPF never finished loading"
	screen_text | grep -E '^Tasks ' >"$3.status"
	screen_text | grep -E '^BPF ' | sed 's/  .*//' >"$3.bpf"
	screen_text | tail -n 1 >"$3.keys"
	help "$3"
	tm_kill
}
# whole W H RUN WHO: the lines at W x H hold only whole words of those at 200x60
whole() {
	# the wide lines of RUN once, for every size it is tried at
	[ -f "$tmp/wide-$4.keys" ] || shot 200 60 "$tmp/wide-$4" "$3"
	for part in status bpf keys help helpkeys; do cp "$tmp/wide-$4.$part" "$tmp/wide.$part"; done
	shot "$1" "$2" "$tmp/narrow" "$3"
	for part in bpf keys help helpkeys; do
		words "$tmp/wide.$part" >"$tmp/w"
		words "$tmp/narrow.$part" >"$tmp/n"
		cut=$(comm -13 "$tmp/w" "$tmp/n" | tr '\n' ' ')
		[ -z "$cut" ] || fail "$1x$2 $4: words cut in the $part lines: $cut
$(cat "$tmp/narrow.$part" | head -n 40)"
	done
	pairs='^Tasks [0-9]+, [0-9]+ shown(  Sort [^ ]+ (asc|desc)(, tree)?)?(  Refresh [0-9.]+s)?(  Exited [0-9]+)?'
	grep -Eq "$pairs *[0-9][0-9]:[0-9][0-9]:[0-9][0-9]\$" "$tmp/narrow.status" ||
		fail "$1x$2 $4: the status line is not whole pairs and the clock: $(cat "$tmp/narrow.status")"
	[ "$(wc -L <"$tmp/narrow.help")" -le "$1" ] || fail "$1x$2 $4: a help line is wider"
	grep -q "F10Quit" "$tmp/narrow.keys" || fail "$1x$2 $4: the key bar lost F10Quit: $(cat "$tmp/narrow.keys")"
	echo "$1x$2 $4: $(cat "$tmp/narrow.bpf") | $(cat "$tmp/narrow.keys")"
}

whole 80 24 "$MEMTOP" root
whole 60 20 "$MEMTOP" root

command -v setpriv >/dev/null || skip "needs setpriv"
dir=$tmp/nobody
mkdir "$dir" && cp "$MEMTOP" "$dir/memtop" && chmod 755 "$tmp" "$dir" "$dir/memtop"
nobody="env ${ASAN_OPTIONS:+ASAN_OPTIONS=log_path=stderr:detect_leaks=1} ${UBSAN_OPTIONS:+UBSAN_OPTIONS=log_path=stderr:halt_on_error=1}"
nobody="$nobody setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all $dir/memtop"
whole 100 30 "$nobody" nobody
whole 80 24 "$nobody" nobody
whole 60 20 "$nobody" nobody
