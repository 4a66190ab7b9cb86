#!/bin/sh
# memtop-test: sanitized
# --groups: a path and a file's text quoted in an error reach stderr escaped: a path with
# an escape sequence and a newline, and lines whose key, list item, regular expression or
# template holds control characters, each give one line on stderr with no control
# character in it (the escapes shown as \e, \n...), exit 1.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
esc=$(printf '\033')
cr=$(printf '\r')

# refused FILE SHOWN: exit 1, one line, no control character, SHOWN in it
refused() {
	"$MEMTOP" --json -n 1 --groups "$1" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc = 1 ] || fail "exit $rc, not 1: $(cat -v "$tmp/err")"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "not one line: $(cat -v "$tmp/err")"
	LC_ALL=C tr -d '\n' <"$tmp/err" | LC_ALL=C grep -q '[[:cntrl:]]' &&
		fail "a control character on stderr: $(cat -v "$tmp/err")"
	grep -qF -- "$2" "$tmp/err" || fail "'$2' not in: $(cat "$tmp/err")"
	cat "$tmp/err"
}

# the path: a missing file, then a bad one
bad="$tmp/a${esc}[31mred
next.yaml"
refused "$bad" 'a\e[31mred\nnext.yaml: No such file or directory'
printf 'process_names:\n  - pid: 1\n' >"$bad"
refused "$bad" 'a\e[31mred\nnext.yaml:2:'

# the text quoted
case_file() { printf "$1" >"$tmp/bad.yaml"; }
case_file "process_names:\n  - comm: [a]\n    x${esc}]0;title\007: 1\n"
refused "$tmp/bad.yaml" "'x\\e]0;title\\x07: 1' is not a 'key: value' line"
case_file "process_names:\n  - comm: [a]\n    cmdline: ['(${esc}[2J']\n"
refused "$tmp/bad.yaml" "cmdline: '(\\e[2J' is not a regular expression"
case_file "process_names:\n  - comm: [a]\n    name: '{{.X${esc}[2J}}'\n"
refused "$tmp/bad.yaml" "name: '{{.X\\e[2J}}' is not a field"
case_file "process_names:\n    - ${esc}[2J${cr}b\n"
refused "$tmp/bad.yaml" "'\\e[2J\\x0db': a list item after no list key"
case_file "${esc}[2J:\n"
refused "$tmp/bad.yaml" "'\\e[2J:': memtop reads process_names: alone"
exit 0
