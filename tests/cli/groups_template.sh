#!/bin/sh
# memtop-test: sanitized
# --groups: a name template is bounded. One of 20,000 {{.Comm}} (180 KB) is refused in one
# line naming FILE:LINE, exit 1; one of 1,024 bytes (113 fields and text) is read, and the
# name it makes is cut to 255 bytes.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
command -v jq >/dev/null || skip "jq not installed"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# fields N TAIL: a rules file whose name is N {{.Comm}} then TAIL, matching memtop itself
fields() {
	awk -v n="$1" -v tail="$2" 'BEGIN {
		printf "process_names:\n  - comm: [gtmpl]\n    name: \""
		for (i = 0; i < n; i++) printf "{{.Comm}}"
		printf "%s\"\n", tail }' >"$tmp/g.yaml"
}
cp "$MEMTOP" "$tmp/gtmpl"

fields 20000 ""
"$tmp/gtmpl" --json -n 1 --groups "$tmp/g.yaml" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 1 ] || fail "a template of 20,000 fields: exit $rc, not 1"
[ "$(wc -l <"$tmp/err")" = 1 ] || fail "not one line: $(head -c 300 "$tmp/err")"
[ "$(cat "$tmp/err")" = "memtop: --groups $tmp/g.yaml:3: name: a template longer than 1024 bytes" ] ||
	fail "not the reason expected: $(head -c 300 "$tmp/err")"
cat "$tmp/err"

# 113 fields (1,017 bytes) and 7 bytes of text: 1,024 bytes
fields 113 "-tail-x"
"$tmp/gtmpl" --json -n 1 --groups "$tmp/g.yaml" >"$tmp/j" 2>"$tmp/err" ||
	fail "a template of 1,024 bytes: exit $?: $(cat "$tmp/err")"
name=$(jq -r '.groups[0].groupname' "$tmp/j")
want=$(awk 'BEGIN { while (length(s) < 255) s = s "gtmpl"; print substr(s, 1, 255) }')
[ "$name" = "$want" ] || fail "the name '$name', not 255 bytes of gtmpl"
echo "1,024 bytes of template: a name of ${#name} bytes"
fields 113 "-tail-xy"
"$tmp/gtmpl" --json -n 1 --groups "$tmp/g.yaml" >/dev/null 2>"$tmp/err" && fail "a template of 1,025 bytes read"
grep -q "longer than 1024 bytes" "$tmp/err" || fail "1,025 bytes: $(cat "$tmp/err")"
exit 0
