#!/bin/sh
# --json -p PID reports the sizes /proc/PID/statm gives for a child that touched a known amount.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

mib=48
start_child $mib
page_kb=$(($(getconf PAGESIZE) / 1024))

# statm is read right before and after the sample; retry if the child changed meanwhile
tries=0
while :; do
	before=$(cat /proc/$child/statm)
	"$MEMTOP" --json -n 1 -p "$child" >"$tmp/out" || fail "memtop --json exited $?"
	after=$(cat /proc/$child/statm)
	[ "$before" = "$after" ] && break
	tries=$((tries + 1))
	[ $tries -lt 3 ] || fail "statm kept changing: '$before' vs '$after'"
done

[ "$(wc -l <"$tmp/out")" -eq 1 ] || fail "-n 1 printed $(wc -l <"$tmp/out") lines"
pids=$(jq -c '[.processes[].pid]' "$tmp/out") || fail "not JSON: $(cat "$tmp/out")"
[ "$pids" = "[$child]" ] || fail "-p $child listed pids $pids"

# statm: size resident shared text lib data dt (pages)
set -- $before
check() { # field statm_pages
	got=$(jq ".processes[0].$1" "$tmp/out")
	case $got in '' | *[!0-9]*) fail "$1 is '$got', not a number" ;; esac
	want=$(($2 * page_kb))
	d=$((got - want))
	[ ${d#-} -le $page_kb ] || fail "$1 is $got KiB, statm says $want KiB"
	echo "ok $1 $got KiB (statm $want KiB)"
}
check vsz_kb "$1"
check rss_kb "$2"
check shr_kb "$3"
check txt_kb "$4"
check data_kb "$6"

rss=$(jq '.processes[0].rss_kb' "$tmp/out")
[ "$rss" -ge $((mib * 1024)) ] || fail "rss_kb $rss is less than the $mib MiB the child touched"
