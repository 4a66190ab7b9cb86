#!/bin/sh
# memtop-test: sanitized
# --record-dir DIR --keep N keeps the N most recent days up to today: a file dated after
# today (a clock that ran ahead) is neither counted nor removed; only recordings named as
# memtop names a day's file (memtop-YYYYMMDD.rec, a real date) are removed, never a file
# so named that is not a recording, nor a symbolic link, nor another name.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

"$MEMTOP" --record "$tmp/one.rec" -n 1 -b >/dev/null 2>"$tmp/err" ||
	fail "--record exited $?: $(cat "$tmp/err")"
mkdir "$tmp/keep"
day() { date -d "$1 days ago" +%Y%m%d; }
d1=$(day 1) d2=$(day 2) d3=$(day 3) d4=$(day 4)
for f in "$d1.rec" "$d1.rec.1" "$d2.rec" 20991231.rec 20250230.rec backup.rec; do
	cp "$tmp/one.rec" "$tmp/keep/memtop-$f"
done
printf 'not a recording\n' >"$tmp/keep/memtop-$d3.rec"
cp "$tmp/one.rec" "$tmp/target.rec"
ln -s "$tmp/target.rec" "$tmp/keep/memtop-$d4.rec"
ls "$tmp/keep" >"$tmp/before"

"$MEMTOP" --record-dir "$tmp/keep" --keep 2 -n 1 -b >/dev/null 2>"$tmp/err" ||
	fail "--record-dir --keep 2 exited $?: $(cat "$tmp/err")"
[ -s "$tmp/err" ] && fail "--record-dir --keep 2 said: $(cat "$tmp/err")"
ls "$tmp/keep" >"$tmp/after"
today=$(comm -13 "$tmp/before" "$tmp/after")
echo "$today" | grep -Eqx 'memtop-[0-9]{8}\.rec' || fail "the day's file is not one new file: '$today'"
head -c 8 "$tmp/keep/$today" | grep -q MEMTOPRC || fail "$today is not a recording"

gone=$(comm -23 "$tmp/before" "$tmp/after" | tr '\n' ' ')
[ "$gone" = "memtop-$d2.rec " ] || fail "--keep 2 removed '$gone', not memtop-$d2.rec alone: $(tr '\n' ' ' <"$tmp/after")"
[ -L "$tmp/keep/memtop-$d4.rec" ] && [ -f "$tmp/target.rec" ] || fail "the symbolic link or its target is gone"
grep -qx 'not a recording' "$tmp/keep/memtop-$d3.rec" || fail "the file that is not a recording changed"
echo "--keep 2: $today and memtop-$d1.rec(.1) kept, memtop-$d2.rec removed;" \
	"the future day, a text file, a link, a bad date and another name left alone"
