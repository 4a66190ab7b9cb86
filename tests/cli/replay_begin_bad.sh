#!/bin/sh
# memtop-test: sanitized
# --begin and --end take a time that exists: a month from 1 to 12, a day of that month
# (February 29 in leap years only), an hour from 0 to 23, a minute and a second from 0
# to 59. Any other is a bad flag: exit 2 and one line naming the bad value, the recording
# untouched; the days and times at the edges are taken.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

"$MEMTOP" --record "$tmp/rec" -n 1 -b >/dev/null 2>"$tmp/err" ||
	fail "--record exited $?: $(cat "$tmp/err")"

# bad FLAG VALUE NAMED: --replay with FLAG VALUE exits 2 with one line naming NAMED
bad() {
	exits 2 "$1 needs .*$3.* in '$2'$" --replay "$tmp/rec" -b "$1" "$2"
}
bad --begin "2026-02-30 10:00" "a day of 2026-02 from 1 to 28, not 30"
bad --begin "2026-02-29 10:00" "a day of 2026-02 from 1 to 28, not 29"
bad --begin "1900-02-29 10:00" "a day of 1900-02 from 1 to 28, not 29"
bad --begin "2026-04-31 10:00" "a day of 2026-04 from 1 to 30, not 31"
bad --begin "2026-13-01 10:00" "a month from 1 to 12, not 13"
bad --begin "2026-00-10 10:00" "a month from 1 to 12, not 0"
bad --begin "2026-01-00 10:00" "a day of 2026-01 from 1 to 31, not 0"
bad --begin 25:00 "an hour from 0 to 23, not 25"
bad --begin 24:00 "an hour from 0 to 23, not 24"
bad --begin 10:60 "a minute from 0 to 59, not 60"
bad --begin 10:00:60 "a second from 0 to 59, not 60"
bad --end 23:61 "a minute from 0 to 59, not 61"
bad --end "2026-02-30 10:00" "a day of 2026-02 from 1 to 28, not 30"
for v in "-1:00" "+1:00" "1:2:3:4" "10:00 " "2026-1-1" "99999999999:00" "26-01-01 10:00"; do
	exits 2 "--begin needs a time as HH:MM\[:SS\] or YYYY-MM-DD HH:MM\[:SS\], not '" \
		--replay "$tmp/rec" -b --begin "$v"
done

# the edges are taken: a leap day, the last day of a month, the day's first and last
# second (the recording's one sample lies between them)
for v in "2024-02-29 00:00" "2000-02-29 00:00" "2026-01-31 00:00:00" 0:00 00:00:00; do
	"$MEMTOP" --replay "$tmp/rec" -b --begin "$v" >"$tmp/out" 2>"$tmp/err" ||
		fail "--begin '$v' exited $?: $(cat "$tmp/err")"
	[ "$(grep -c '^memtop ' "$tmp/out")" = 1 ] || fail "--begin '$v' printed $(grep -c '^memtop ' "$tmp/out") samples"
done
"$MEMTOP" --replay "$tmp/rec" -b --end 23:59:59 >"$tmp/out" 2>"$tmp/err" ||
	fail "--end 23:59:59 exited $?: $(cat "$tmp/err")"
echo "bad days, months, hours, minutes and seconds exit 2 naming the value; the edges taken"
