#!/bin/sh
# memtop-test: anywhere
# The doc/ pages' generated blocks (<!-- generated: NAME --> ... <!-- end generated -->)
# are what `make doc` (mkman --doc, from memtop's own tables) writes now; and, checked
# against memtop's own output rather than the generator: every key of a process and of a
# cgroup in --json, every metric family of --openmetrics and every column title of batch
# text is in the pages. A page with a stale block fails, and so does an unknown block.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
top=$(cd "$(dirname "$0")/../.." && pwd)
mkman=$(dirname "$MEMTOP")/mkman
case "$MEMTOP" in */asan/*) mkman=$(dirname "$MEMTOP")/../mkman ;; esac
[ -x "$mkman" ] || fail "$mkman is not built (make man)"

blocks=0
for page in "$top"/doc/*.md; do
	"$mkman" --doc "$page" >"$tmp/page" 2>"$tmp/err" || fail "mkman --doc $page: $(cat "$tmp/err")"
	cmp -s "$page" "$tmp/page" ||
		fail "${page#"$top"/} is stale (run make doc): $(diff "$page" "$tmp/page" | head -5)"
	blocks=$((blocks + $(grep -c '^<!-- generated: ' "$page")))
done
[ "$blocks" -ge 7 ] || fail "only $blocks generated blocks in doc/"

# the check can fail: a block with a row taken out, and a block of no such name
sed -n '/^<!-- generated: columns /,/^<!-- end generated/p' "$top/doc/columns.md" >"$tmp/block"
[ "$(wc -l <"$tmp/block")" -ge 20 ] || fail "doc/columns.md has no columns block"
grep -v '^| `RSS` ' "$top/doc/columns.md" >"$tmp/stale.md"
"$mkman" --doc "$tmp/stale.md" | cmp -s - "$tmp/stale.md" && fail "a block without RSS's row reads as current"
printf '<!-- generated: nosuch -->\n<!-- end generated -->\n' >"$tmp/bad.md"
"$mkman" --doc "$tmp/bad.md" >/dev/null 2>"$tmp/err" && fail "mkman --doc took a block named nosuch"
grep -q nosuch "$tmp/err" || fail "mkman --doc's error does not name the block: $(cat "$tmp/err")"

# memtop's own outputs against the pages
"$MEMTOP" --json --cgroups -n 1 -d 0.2 --columns +used,locked,pss,uss,ahp,hugetlb,oom,grow,grow10,ppid,comm,cgroup \
	>"$tmp/json" || fail "memtop --json exited $?"
jq -r '.processes[0] | keys[]' "$tmp/json" >"$tmp/pkeys"
jq -r '.cgroups[0] | keys[]' "$tmp/json" >"$tmp/ckeys"
[ "$(wc -l <"$tmp/pkeys")" -ge 20 ] || fail "too few process keys: $(cat "$tmp/pkeys")"
n=0
while read -r k; do
	case "$k" in rate_since_s | leak_suspect | removed) continue ;; esac # doc/json.md by hand
	grep -q "\`$k\`" "$top/doc/json.md" || fail "doc/json.md lacks the key $k"
	n=$((n + 1))
done <"$tmp/pkeys"
while read -r k; do
	case "$k" in removed) grep -q '`removed`' "$top/doc/cgroups.md" || fail "doc/cgroups.md lacks removed" ;; esac
	grep -q "\`$k\`" "$top/doc/json.md" "$top/doc/cgroups.md" || fail "the cgroup key $k is in no doc page"
	n=$((n + 1))
done <"$tmp/ckeys"
jq -r '.system | keys[]' "$tmp/json" | while read -r k; do
	grep -q "\`$k\`" "$top/doc/columns.md" || echo "$k"
done >"$tmp/nokey"
[ ! -s "$tmp/nokey" ] || fail "doc/columns.md lacks system keys: $(tr '\n' ' ' <"$tmp/nokey")"
"$MEMTOP" --openmetrics --cgroups --columns +pss,uss,ahp,hugetlb,locked,oom >"$tmp/om" ||
	fail "memtop --openmetrics exited $?"
sed -n 's/^# TYPE \([a-z0-9_]*\) .*/\1/p' "$tmp/om" | sort -u >"$tmp/families"
[ "$(wc -l <"$tmp/families")" -ge 30 ] || fail "too few metric families: $(cat "$tmp/families")"
m=0
while read -r f; do
	grep -q "\`$f" "$top/doc/openmetrics.md" || fail "doc/openmetrics.md lacks the metric $f"
	m=$((m + 1))
done <"$tmp/families"
"$MEMTOP" -b -n 1 --columns +used,locked,pss,uss,ahp,hugetlb,oom,grow,grow10,ppid,comm,cgroup -p $$ >"$tmp/batch" ||
	fail "memtop -b exited $?"
for t in $(grep -m 1 '^ *PID ' "$tmp/batch"); do
	grep -qF "| \`$t\` |" "$top/doc/columns.md" || fail "doc/columns.md lacks the column $t"
done
echo "docs: $blocks generated blocks current; $n JSON keys and $m metric families of memtop's output in doc/"
