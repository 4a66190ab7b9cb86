#!/bin/sh
# memtop-test: anywhere
# --groups: regular expressions that RE2 (process-exporter's) refuses and glibc's matcher
# takes at a super-linear cost are refused in one line naming FILE:LINE, exit 1: a back
# reference, a repetition count over 100, nested ones over 100 in all. A pattern that is
# allowed yet costly in glibc (a failing search over a long command line takes time in the
# square of its length) costs once per process: with six processes of 3,000-byte command
# lines, each matched once (and then over the first 1,024 bytes alone), -n 20 prints its
# 20 refreshes and the group they make counts all six at each.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
command -v jq >/dev/null || skip "jq not installed"
command -v bash >/dev/null || skip "bash not installed (exec -a)"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
kids=
trap 'for p in $kids; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

# refused RE WHY: a rule of cmdline RE (single-quoted YAML) refused at line 3 for WHY
refused() {
	printf "process_names:\n  - comm: [a]\n    cmdline: ['%s']\n" "$1" >"$tmp/bad.yaml"
	"$MEMTOP" --json -n 1 --groups "$tmp/bad.yaml" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc = 1 ] || fail "'$1': exit $rc, not 1: $(cat "$tmp/err")"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "'$1': not one line: $(cat "$tmp/err")"
	grep -qF "memtop: --groups $tmp/bad.yaml:3: cmdline: " "$tmp/err" &&
		grep -qF "$2" "$tmp/err" || fail "'$1': not ':3: ... $2': $(cat "$tmp/err")"
	cat "$tmp/err"
}
refused '(a*)*\1' "a back reference"
refused '^(x+)(y)\2' "a back reference"
refused 'a{101}' "a repetition count over 100"
refused 'a{2,5000}' "a repetition count over 100"
refused '((a{5}){5}){5}' "repetitions nested over 100"
# allowed: a digit escaped in a bracket expression, 100 in all
printf "process_names:\n  - cmdline: ['[\\\\1]{2}', '((a{5}){5}){4}|x']\n" >"$tmp/ok.yaml"
"$MEMTOP" --json -n 1 --groups "$tmp/ok.yaml" >/dev/null 2>"$tmp/err" ||
	fail "allowed expressions refused: $(cat "$tmp/err")"

# six sleeps whose command line is 3,000 bytes of 'a' (no 'x': the first rule's search
# fails, having tried every place in the text)
long=$(awk 'BEGIN { while (length(s) < 3000) s = s "a"; print s }')
for i in 1 2 3 4 5 6; do
	bash -c 'exec -a "$0" sleep 300' "$long" &
	kids="$kids $!"
done
started() { for p in $kids; do [ "$(tr '\0' ' ' <"/proc/$p/cmdline" | wc -c)" -gt 3000 ] || return 1; done; }
eventually $HANG started || fail "the sleeps never showed their long command lines"
cat >"$tmp/g.yaml" <<'YAML'
process_names:
  - name: never
    cmdline: ['(.*){100}x']
    comm: [sleep]
  - name: sleepers
    comm: [sleep]
    cmdline: ['^a{100}']
YAML
n=20
"$MEMTOP" --json -n $n -d 0.1 -p "$(echo $kids | tr ' ' ,)" --groups "$tmp/g.yaml" >"$tmp/j" 2>"$tmp/err" ||
	fail "--groups exited $?: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/j")" = $n ] || fail "$(wc -l <"$tmp/j") refreshes printed of -n $n"
counts=$(jq -c '[.groups[] | select(.groupname == "sleepers") | .count]' "$tmp/j" | sort | uniq -c)
echo "sleepers at each of the $n refreshes:" $counts
[ "$(jq -c '[.groups[] | select(.groupname == "sleepers") | .count]' "$tmp/j" | sort -u)" = "[6]" ] ||
	fail "sleepers not 6 at every refresh: $counts"
exit 0
