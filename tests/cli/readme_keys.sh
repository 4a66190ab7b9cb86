#!/bin/sh
# README's table of the keys that matter names keys memtop has: each key of it (`h`,
# F6, Enter, Space...) is a key of the process table or of the keys every table shares,
# as doc/keys.md's block generated from memtop's own key tables lists them (that block is
# current: docs_current.sh), and the README says what that key does there in its own
# words. README before its reference links is under 600 words (read in two minutes).
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
cd "$TESTS/.." || fail "no source tree above $TESTS"

# the keys of the two first generated tables (the shared ones, the process table's)
awk '/<!-- generated: keys/ { on = 1 } /<!-- end generated/ { on = 0 }
	on && /^\*\*/ { t++ } on && t <= 2 && /^\| `/ { split($0, c, "|"); print c[2] }' doc/keys.md |
	grep -o '`[^`]*`' | tr -d '`' | sort -u >"$tmp/memtop"
[ "$(wc -l <"$tmp/memtop")" -ge 30 ] || fail "too few keys in doc/keys.md's generated block: $(cat "$tmp/memtop")"
# README's rows: their first cell's keys, backquoted or named (Enter, Space, F1..F12)
awk '/^## The keys that matter/ { on = 1; next } on && /^## / { on = 0 }
	on && /^\| / && !/^\| key \|/ && !/^\| ---/ { split($0, c, "|"); print c[2] }' README.md >"$tmp/rows"
[ "$(wc -l <"$tmp/rows")" -ge 8 ] || fail "README's key table has $(wc -l <"$tmp/rows") rows"
n=0
while IFS= read -r row; do
	keys=$( (printf '%s\n' "$row" | grep -o '`[^`]*`' | tr -d '`'
		printf '%s\n' "$row" | sed 's/`[^`]*`//g' | grep -oE '\b(Enter|Space|Esc|Tab|F[0-9]+)\b') | sort -u)
	[ -n "$keys" ] || fail "a README key row names no key: $row"
	for k in $keys; do
		grep -qxF -- "$k" "$tmp/memtop" || fail "README names the key '$k', which memtop's tables do not have"
		n=$((n + 1))
	done
done <"$tmp/rows"
words=$(awk '/^## The reference/ { exit } { print }' README.md | wc -w)
[ "$words" -lt 600 ] || fail "README has $words words before its reference links, 600 or more"
echo "README's $(wc -l <"$tmp/rows") key rows name $n keys, each one of memtop's"
