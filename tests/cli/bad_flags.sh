#!/bin/sh
# memtop-test: sanitized
# Bad command lines exit 2 with one "memtop: " line on stderr; --help and -V work;
# the full-screen view refuses to write to a pipe.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

rejects() { # ARGS...: memtop -b ARGS must fail with exit 2 and a one-line message
	"$MEMTOP" -b -n 1 "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] || fail "memtop -b -n 1 $* exited $rc, not 2"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "memtop $*: stderr is not one line: $(cat "$tmp/err")"
	grep -q '^memtop: ' "$tmp/err" || fail "memtop $*: stderr lacks 'memtop: ': $(cat "$tmp/err")"
	[ ! -s "$tmp/out" ] || fail "memtop $* printed to stdout: $(head -3 "$tmp/out")"
	printf '%-22s %s\n' "$*" "$(cat "$tmp/err")"
}
rejects --no-such-option
rejects --pin
rejects --record /nonexistent/r --pin --no-bpf
rejects -x
rejects --oom-score-adj 1001
rejects -n 0
rejects -n abc
rejects -d -1
rejects -d x
rejects -p abc
rejects -p 0
rejects -u nosuchuser_xyz
rejects -o nosuchcol
rejects --columns pid,nosuchcol
rejects --columns pid,-rss
rejects --columns -pid,-user,-rss,-vsz,-shr,-txt,-data,-swap,-mem,-minflt,-majflt,-swapin,-reclaim,-cmd
rejects extra
rejects -d

"$MEMTOP" --help >"$tmp/out" 2>"$tmp/err" || fail "--help exited $?"
grep -q -- '--json' "$tmp/out" || fail "--help does not mention --json"
"$MEMTOP" -V >"$tmp/out" 2>&1 || fail "-V exited $?"
grep -Eq '^memtop [0-9]+\.[0-9]+' "$tmp/out" || fail "-V printed '$(cat "$tmp/out")'"

# the full-screen view with a terminal on stdin but stdout a file
tm_start 80 24 "\"$MEMTOP\" >'$tmp/tui.out' 2>'$tmp/tui.err'; echo \$? >'$tmp/tui.rc'"
wait_file "$tmp/tui.rc" || fail "the TUI with stdout a file did not exit: $(screen_text)"
rc=$(cat "$tmp/tui.rc")
[ "$rc" -eq 2 ] || fail "the TUI with stdout not a terminal exited $rc, not 2"
[ "$(wc -l <"$tmp/tui.err")" -eq 1 ] && grep -q '^memtop: ' "$tmp/tui.err" ||
	fail "the TUI without a terminal said: $(cat "$tmp/tui.err")"
[ ! -s "$tmp/tui.out" ] || fail "the TUI wrote to a file: $(head -c 200 "$tmp/tui.out" | cat -v)"
