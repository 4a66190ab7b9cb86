#!/bin/sh
# memtop-test: sanitized
# Only a regular file is read as a theme or as the settings file: a FIFO (which would
# block open() until a writer came) or a directory stops memtop at once with one line
# naming the file, exit 2.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
mkdir -p "$tmp/fifo/memtop" "$tmp/dir/memtop/memtoprc"
mkfifo "$tmp/fifo/memtop/memtoprc" "$tmp/theme.fifo"
mkdir "$tmp/theme.dir"

# refused ENV ARGS WHY: memtop run with ENV and ARGS in a terminal exits 2 within 10 s
# (timeout ends one that waits) with one line on stderr that ends in WHY
n=0
refused() {
	n=$((n + 1))
	tm_start 100 30 "env $1 timeout --foreground 10 '$MEMTOP' $2 2>'$tmp/err$n'; echo \$? >'$tmp/rc$n'"
	wait_file "$tmp/rc$n" 15 || fail "memtop $2 ($1) did not end"
	rc=$(cat "$tmp/rc$n")
	printf '%s %s: exit %s: %s\n' "$1" "$2" "$rc" "$(cat "$tmp/err$n")"
	[ "$rc" = 2 ] || fail "memtop $2 ($1) exited $rc, not 2 (124: it waited on the file)"
	[ "$(wc -l <"$tmp/err$n")" = 1 ] && grep -q "^memtop: .*: $3\$" "$tmp/err$n" ||
		fail "memtop $2 ($1) did not say in one line that the file is refused: $(cat "$tmp/err$n")"
	tm_kill
	TMUX_SOCK=memtop-test-$$-$n # a server of its own for the next
}

refused XDG_CONFIG_HOME=/nonexistent "--theme '$tmp/theme.fifo'" "not a regular file"
grep -q "theme '$tmp/theme.fifo'" "$tmp/err$n" || fail "the message does not name the theme"
refused "XDG_CONFIG_HOME='$tmp/fifo'" "" "not a regular file"
grep -q "$tmp/fifo/memtop/memtoprc" "$tmp/err$n" || fail "the message does not name the file"
refused XDG_CONFIG_HOME=/nonexistent "--theme '$tmp/theme.dir'" "Is a directory"
refused "XDG_CONFIG_HOME='$tmp/dir'" "" "Is a directory"
exit 0
