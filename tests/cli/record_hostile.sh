#!/bin/sh
# memtop-test: anywhere
# memtop-test: sanitized
# Hostile recordings (tests/unit/rec_hostile.c, written by the hostile_rec helper): a
# process without a command line or user replays as [comm] and its uid; a sample claiming
# a million processes, cgroups or OOM kills, or a cgroup claiming two million processes,
# is refused in one line, in little memory;
# damage made of keyframe look-alikes each claiming the rest of the file is passed in
# about the time of reading the file (the unit test counts the bytes read).
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
"$HELPERS/hostile_rec" "$tmp" || fail "hostile_rec could not write the files"

"$MEMTOP" --replay "$tmp/nocmd.rec" -b >"$tmp/out" 2>"$tmp/err" ||
	fail "--replay -b of a process without a command line exited $?: $(cat "$tmp/err")"
grep -Eq '^ +1234 4321 .* \[nocmd\]$' "$tmp/out" && grep -q ' \[flags37\]$' "$tmp/out" ||
	fail "the processes without a command line are not shown as [comm]: $(grep -A1 PID "$tmp/out")"
"$MEMTOP" --replay "$tmp/nocmd.rec" --json >"$tmp/out" 2>"$tmp/err" ||
	fail "--replay --json of a process without a command line exited $?: $(cat "$tmp/err")"

# the most memory a run may take: the sanitized build's shadow and quarantine included,
# far below what a million processes would take (over 1 GB)
max_kb=300000
for part in procs:processes cgroups:cgroups events:events "tasks:cgroups' processes"; do
	what=${part#*:} part=${part%:*}
	exits 1 "$tmp/$part.rec: damaged block at offset [0-9]+: more $what than a sample holds" \
		--replay "$tmp/$part.rec" -b
	[ -x /usr/bin/time ] || continue
	/usr/bin/time -f '%M' -o "$tmp/kb" "$MEMTOP" --replay "$tmp/$part.rec" --json \
		>/dev/null 2>&1
	[ "$(tail -n 1 "$tmp/kb")" -lt $max_kb ] ||
		fail "$part.rec took $(tail -n 1 "$tmp/kb") KB to refuse"
done

# the keyframe before the damage is replayed, the damage said in one line; a generous
# bound on the CPU time: the square of the look-alikes took 20 s, the walk takes some
# milliseconds (and under a sanitizer, some tenths of a second)
"$MEMTOP" --replay "$tmp/lookalikes.rec" --json >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && [ "$(wc -l <"$tmp/out")" = 1 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
	grep -Eq "^memtop: $tmp/lookalikes.rec: damaged block at offset [0-9]+: no block header there; .* to the end of the file" "$tmp/err" ||
	fail "the look-alikes' replay exited $rc, printed $(wc -l <"$tmp/out") samples and said: $(cat "$tmp/err")"
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f '%U %S' -o "$tmp/cpu" "$MEMTOP" --replay "$tmp/lookalikes.rec" -b \
		>/dev/null 2>&1
	awk '{ exit !($1 + $2 < 5) }' "$tmp/cpu" ||
		fail "the look-alikes took $(cat "$tmp/cpu") s of CPU"
fi
echo "no command line shown as [comm]; a million processes, cgroups, events, a cgroup's two million processes refused; look-alikes passed"
