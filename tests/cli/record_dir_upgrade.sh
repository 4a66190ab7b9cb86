#!/bin/sh
# A --record-dir recorder started on a day whose file another version (or other columns)
# wrote moves that file aside to .rec.1, says so in one line, and records the rest of the
# day in a new file; a replay of the directory reads both. Where the day has a .rec.1
# already, it refuses as a --record to such a file does.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
command -v jq >/dev/null || skip "needs jq"

mkdir "$tmp/d"
"$MEMTOP" --record-dir "$tmp/d" --columns pid,rss -b -n 2 -d 0.2 >/dev/null 2>"$tmp/err" ||
	fail "the first recorder exited $?: $(cat "$tmp/err")"
day=$(ls "$tmp/d")
[ "$(ls "$tmp/d" | wc -l)" = 1 ] || fail "files after the first: $(ls "$tmp/d")"
"$MEMTOP" --record-dir "$tmp/d" -b -n 2 -d 0.2 >/dev/null 2>"$tmp/err" ||
	fail "the second recorder exited $?: $(cat "$tmp/err")"
grep -qF "$day: another version's; moved to $day.1" "$tmp/err" || fail "not said: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/err")" = 1 ] || fail "stderr is not one line: $(cat "$tmp/err")"
[ -f "$tmp/d/$day.1" ] && [ -f "$tmp/d/$day" ] || fail "files: $(ls "$tmp/d")"
"$MEMTOP" --replay "$tmp/d" --json >"$tmp/j" 2>"$tmp/err" || fail "--replay exited $?: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/j")" = 4 ] || fail "the directory replays $(wc -l <"$tmp/j") samples, not 4"

# a third with other columns again: the day has its .rec.1, so it refuses
"$MEMTOP" --record-dir "$tmp/d" --columns pid,vsz -b -n 1 >/dev/null 2>"$tmp/err" &&
	fail "the third recorder appended to another version's file"
grep -q "not a recording this memtop appends to" "$tmp/err" || fail "the refusal: $(cat "$tmp/err")"
echo "$day moved to $day.1, the day goes on in a new file; 4 samples replayed"
