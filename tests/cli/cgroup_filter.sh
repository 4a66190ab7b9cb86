#!/bin/sh
# --cgroup PATH and the CGROUP column, as root on the real hierarchy: idle processes in a
# cgroup, in a child of it, in a sibling whose name begins with the cgroup's, and one
# outside them. --cgroup shows exactly the processes in that cgroup or below it (JSON),
# whatever the trailing slashes; each process's JSON cgroup is the memory path of its
# /proc/PID/cgroup; a process moved into the cgroup while memtop runs shows from the next
# refresh on; the batch text's CGROUP cell keeps the end of a long path, a container id
# cut to 12 characters.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
command -v jq >/dev/null || skip "needs jq"
[ "$(id -u)" = 0 ] || skip "needs root (makes memory cgroups)"
if [ -d /sys/fs/cgroup/memory ]; then
	root=/sys/fs/cgroup/memory
elif grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
	root=/sys/fs/cgroup
else
	skip "no memory cgroup controller to use"
fi
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
name=memtop-cgf-$$
id=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
dirs="$root/$name/sub/$id $root/$name/sub $root/$name $root/${name}x"
kids=
cleanup() {
	[ -n "$kids" ] && kill -9 $kids 2>/dev/null
	wait 2>/dev/null
	for d in $dirs; do
		i=0
		while [ -d "$d" ] && ! rmdir "$d" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.1
			i=$((i + 1))
		done
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
mkdir -p "$root/$name/sub/$id" "$root/${name}x" || fail "mkdir in $root"

# idle DIR: a sleep in the cgroup at DIR (moved there before exec); sets pid
idle() {
	sh -c 'echo $$ >"$0/cgroup.procs" && exec sleep 1000' "$1" &
	pid=$!
	kids="$kids $pid"
	i=0
	until [ "$(readlink "/proc/$pid/exe")" = "$(readlink -f "$(command -v sleep)")" ]; do
		[ $i -lt 600 ] || fail "sleep $pid never started"
		sleep 0.1
		i=$((i + 1))
	done
}
idle "$root/$name"
top=$pid
idle "$root/$name/sub"
sub=$pid
idle "$root/$name/sub/$id"
deep=$pid
idle "$root/${name}x"
sibling=$pid
sleep 1000 &
outside=$!
kids="$kids $outside"

# memory_path PID: the memory cgroup /proc/PID/cgroup names (v1's memory line, else 0::)
memory_path() {
	awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3; found = 1 } END { if (!found) exit 1 }' \
		"/proc/$1/cgroup" || awk -F: '$1 == 0 && $2 == "" { print $3 }' "/proc/$1/cgroup"
}

# shows PATH PIDS...: --cgroup PATH lists exactly these of the test's processes
shows() {
	path=$1
	shift
	"$MEMTOP" --json -n 1 --columns +cgroup --cgroup "$path" >"$tmp/json" ||
		fail "memtop --cgroup $path exited $?"
	got=$(jq -r --arg ids " $top $sub $deep $sibling $outside " '.processes[].pid as $p |
		select($ids | contains(" \($p) ")) | $p' "$tmp/json" | sort -n | tr '\n' ' ')
	want=$(printf '%s\n' "$@" | sort -n | tr '\n' ' ')
	[ "$got" = "$want" ] || fail "--cgroup $path: the test's processes $got, expected $want"
	# nothing outside it either
	jq -r --arg p "$(printf '%s' "$path" | sed 's,//*,/,g; s,/$,,; s,^\([^/]\),/\1,')" \
		'.processes[] | select((.cgroup == $p or (.cgroup | startswith($p + "/"))) | not) |
		"\(.pid) \(.cgroup)"' "$tmp/json" >"$tmp/outside"
	[ ! -s "$tmp/outside" ] || fail "--cgroup $path shows processes outside it: $(cat "$tmp/outside")"
}
shows "/$name" "$top" "$sub" "$deep"
shows "$name/sub/" "$sub" "$deep"
shows "//$name//sub//$id//" "$deep"
shows "/${name}x" "$sibling"

# each process's cgroup, as /proc/PID/cgroup names it
"$MEMTOP" --json -n 1 --columns +cgroup >"$tmp/all" || fail "memtop --json exited $?"
for p in $top $sub $deep $sibling $outside 1 $$; do
	want=$(memory_path "$p")
	got=$(jq -r --argjson p "$p" '.processes[] | select(.pid == $p) | .cgroup' "$tmp/all")
	[ "$got" = "$want" ] || fail "pid $p: JSON cgroup '$got', /proc/$p/cgroup '$want'"
done
# null only for a process gone before its cgroup was read
for p in $(jq '.processes[] | select(.cgroup == null) | .pid' "$tmp/all"); do
	[ ! -e "/proc/$p" ] || fail "pid $p has no cgroup in JSON: $(cat "/proc/$p/cgroup")"
done
# without the column, the key all the same (doc/json.md: "cgroup ... for every process")
"$MEMTOP" --json -n 1 | jq -e 'all(.processes[]; has("cgroup"))' >/dev/null ||
	fail "JSON lacks cgroup without the column"

# moved in while memtop runs: shown from the next refresh
: >"$tmp/moving"
"$MEMTOP" --json -n 4 -d 0.5 --cgroup "/$name/sub" >"$tmp/moving" &
mt=$!
kids="$kids $mt"
i=0
until [ "$(wc -l <"$tmp/moving")" -ge 1 ]; do
	[ $i -lt 600 ] || fail "memtop wrote nothing"
	sleep 0.1
	i=$((i + 1))
done
echo "$outside" >"$root/$name/sub/cgroup.procs" || fail "moving $outside"
wait "$mt"
head -n 1 "$tmp/moving" | jq -e --argjson p "$outside" 'all(.processes[]; .pid != $p)' >/dev/null ||
	fail "pid $outside shown in /$name/sub before it was moved there"
tail -n 1 "$tmp/moving" | jq -e --argjson p "$outside" 'any(.processes[]; .pid == $p)' >/dev/null ||
	fail "pid $outside not shown in /$name/sub after it was moved there"

# the batch cell: the path's end, the id cut to 12
"$MEMTOP" -b -n 1 --columns pid,cgroup,cmd -p "$deep" >"$tmp/batch" || fail "memtop -b exited $?"
cell=$(awk -v p="$deep" '$1 == p { print $2 }' "$tmp/batch")
want="..$(printf '%s' "/$name/sub/0123456789ab" | tail -c 22)"
[ "$cell" = "$want" ] || fail "batch CGROUP cell '$cell', expected '$want'"
echo "--cgroup shows its processes; cgroups as /proc says; the cell: $cell"
