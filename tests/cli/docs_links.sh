#!/bin/sh
# memtop-test: anywhere
# README.md and the doc/ pages: every relative link resolves (the file exists, and an
# #anchor is a heading of it, as GitHub makes anchors), and every --flag they name is one
# memtop --help lists (other programs' flags named beside their program are listed
# below). README.md stays under 200 lines.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || fail "no $top"
pages="README.md $(ls doc/*.md)"
[ "$(echo "$pages" | wc -w)" -ge 12 ] || fail "too few pages: $pages"

# a page's anchors: its headings, lowercased, without punctuation, spaces as hyphens
anchors() {
	sed -n 's/^#\{1,6\} \(.*\)/\1/p' "$1" | tr 'A-Z' 'a-z' |
		sed -e 's/[^a-z0-9 _-]//g' -e 's/ /-/g'
}

bad=0 links=0
for page in $pages; do
	dir=$(dirname "$page")
	# the links' targets: ](target), outside code spans (a code span is dropped first)
	sed -e 's/`[^`]*`//g' "$page" | grep -o '](\([^)]*\))' | sed 's/^](\(.*\))$/\1/' >"$tmp/targets"
	while read -r t; do
		case "$t" in http://* | https://* | mailto:*) continue ;; esac
		links=$((links + 1))
		file=${t%%#*} anchor=
		case "$t" in *'#'*) anchor=${t#*#} ;; esac
		if [ -z "$file" ]; then target=$page; else target=$dir/$file; fi
		if [ ! -e "$target" ]; then
			echo "FAIL: $page links to $t: no $target"
			bad=1
			continue
		fi
		if [ -n "$anchor" ] && ! anchors "$target" | grep -qx -- "$anchor"; then
			echo "FAIL: $page links to $t: $target has no heading #$anchor ($(anchors "$target" | tr '\n' ' '))"
			bad=1
		fi
	done <"$tmp/targets"
done
[ "$links" -ge 30 ] || fail "only $links relative links found"

# the flags: those --help lists, and those the pages name
"$MEMTOP" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u >"$tmp/help"
[ "$(wc -l <"$tmp/help")" -ge 25 ] || fail "too few flags in --help: $(cat "$tmp/help")"
# other programs' flags, named beside their program: perf's, systemctl's, mkman's, git's
printf '%s\n' --call-graph --now --doc --always --dirty >"$tmp/foreign"
flags=0
for page in $pages; do
	grep -oE -- '(^|[^a-z0-9-])--[a-z][a-z-]*[a-z]' "$page" | sed 's/^[^-]*//' | sort -u |
		while read -r f; do
			grep -qx -- "$f" "$tmp/help" || grep -qx -- "$f" "$tmp/foreign" ||
				echo "$page names $f, which memtop --help does not list"
		done
done >"$tmp/badflags"
flags=$(cat $pages | grep -oE -- '(^|[^a-z0-9-])--[a-z][a-z-]*[a-z]' | sed 's/^[^-]*//' | sort -u | wc -l)
if [ -s "$tmp/badflags" ]; then
	sed 's/^/FAIL: /' "$tmp/badflags"
	bad=1
fi
[ "$flags" -ge 20 ] || fail "only $flags flags named in the pages"

lines=$(wc -l <README.md)
[ "$lines" -lt 200 ] || fail "README.md has $lines lines, 200 or more"
[ $bad = 0 ] || exit 1
echo "docs: $links relative links resolve in $(echo "$pages" | wc -w) pages, $flags flags named all in --help; README.md $lines lines"
