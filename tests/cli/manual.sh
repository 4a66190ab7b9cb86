#!/bin/sh
# The manual page (build/memtop.1, from man/memtop.1.in and memtop's tables): man renders
# it at 80 columns without a warning, in under 450 lines, with the sections a reader looks
# for (the forecast, leak suspects, the verdict, the post-mortem, examples of recording,
# replaying, scraping and finding a leak's stack), and an entry for every flag memtop
# --help lists (the unit tests check the keys and columns). make install DESTDIR= puts the
# binary, every theme, the manual and the documentation under PREFIX.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
command -v man >/dev/null || skip "no man (apt-get install man-db)"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
page=$(dirname "$MEMTOP")/memtop.1
case "$MEMTOP" in */asan/*) page=$(dirname "$MEMTOP")/../memtop.1 ;; esac
[ -s "$page" ] || fail "$page is not built (make man)"

MANWIDTH=80 man --warnings -l "$page" >"$tmp/page" 2>"$tmp/warnings" || fail "man -l $page failed: $(cat "$tmp/warnings")"
[ ! -s "$tmp/warnings" ] || fail "man --warnings: $(head -5 "$tmp/warnings")"
for s in OPTIONS KEYS MOUSE COLUMNS FORECASTS "LEAK SUSPECTS" VERDICT POST-MORTEM FILES \
	ENVIRONMENT EXAMPLES; do
	grep -q "^$s\$" "$tmp/page" || fail "the section $s is missing: $(grep '^[A-Z]' "$tmp/page" | tr '\n' ' ')"
done
lines=$(wc -l <"$tmp/page")
[ "$lines" -lt 450 ] || fail "the manual is $lines lines at 80 columns, 450 or more"
# the examples: a day recorded with systemd, a replay of the minutes before a kill, a
# Prometheus scrape, a leak's stacks
for e in "memtop-record.service" "--replay /var/log/memtop --begin" "--serve 0.0.0.0:" "--leaks 1234:"; do
	sed -n '/^EXAMPLES/,/^SEE ALSO/p' "$tmp/page" | grep -q -- "$e" || fail "EXAMPLES lacks $e"
done
# no line wider than 80 columns
awk 'length($0) > 80 { print; bad = 1 } END { exit bad }' "$tmp/page" >"$tmp/wide" ||
	fail "lines wider than 80: $(head -3 "$tmp/wide")"

# the flags, as --help lists them: "  -b, --batch ..." and "      --json ..."
"$MEMTOP" --help | grep -E '^ {2,6}-' | grep -oE '(^|[ ,])--?[A-Za-z][A-Za-z-]*' |
	tr -d ' ,' | sort -u >"$tmp/flags"
[ "$(wc -l <"$tmp/flags")" -ge 25 ] || fail "too few flags read from --help: $(cat "$tmp/flags")"
n=0
while read -r f; do
	# an entry's tag: the flag at the start of an indented line
	grep -qE -- "^ +(-[A-Za-z], )?$f( |,|\$)" "$tmp/page" || fail "the manual has no entry for $f"
	n=$((n + 1))
done <"$tmp/flags"

# what was built, as it is (-o: never remade here, where other tests run build/memtop)
make --no-print-directory -s -o build/memtop -o build/memtop.1 install DESTDIR="$tmp/root" \
	>"$tmp/install" 2>&1 || fail "make install failed: $(tail -5 "$tmp/install")"
[ -x "$tmp/root/usr/local/bin/memtop" ] || fail "no usr/local/bin/memtop installed"
cmp -s build/memtop "$tmp/root/usr/local/bin/memtop" || fail "the installed memtop is not build/memtop"
for t in themes/*.theme; do
	cmp -s "$t" "$tmp/root/usr/local/share/memtop/themes/${t#themes/}" || fail "$t not installed"
done
[ -s "$tmp/root/usr/local/share/man/man1/memtop.1" ] || fail "no usr/local/share/man/man1/memtop.1 installed"
for d in README.md doc/*.md; do
	cmp -s "$d" "$tmp/root/usr/local/share/doc/memtop/${d#doc/}" || fail "$d not installed"
done
MANWIDTH=80 man -l "$tmp/root/usr/local/share/man/man1/memtop.1" 2>/dev/null | grep -q -- "--no-mouse" ||
	fail "the manual installed does not render"
echo "manual: $lines lines, renders without warnings, $n flags of --help listed; make install puts binary, $(ls themes/*.theme | wc -l) themes, manual and $(ls doc/*.md | wc -l) doc pages"
