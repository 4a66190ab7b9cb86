#!/bin/sh
# USED (JSON used_kb) is RSS + swap: VmRSS + VmSwap of /proc/PID/status, for a child that
# touched a known amount; it is in JSON with SWAP (the default) and in batch text when shown.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child=
trap '[ -n "$child" ] && kill "$child" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

start_child 32
status_kb() { awk -v k="$1:" '$1 == k { print $2 }' "/proc/$child/status"; }

# status is read around the sample; again if the child's figures changed meanwhile
tries=0
while :; do
	before="$(status_kb VmRSS) $(status_kb VmSwap)"
	"$MEMTOP" --json -n 1 -p "$child" --columns +used >"$tmp/out" || fail "memtop --json exited $?"
	after="$(status_kb VmRSS) $(status_kb VmSwap)"
	[ "$before" = "$after" ] && break
	tries=$((tries + 1))
	[ $tries -lt 3 ] || fail "status kept changing: '$before' vs '$after'"
done
set -- $before
want=$(($1 + $2))
got=$(jq '.processes[0].used_kb' "$tmp/out") || fail "not JSON: $(head -c 300 "$tmp/out")"
rss=$(jq '.processes[0].rss_kb' "$tmp/out")
swap=$(jq '.processes[0].swap_kb' "$tmp/out")
case $got in '' | *[!0-9]*) fail "used_kb is '$got', not a number" ;; esac
[ "$got" -eq $((rss + swap)) ] || fail "used_kb $got is not rss_kb $rss + swap_kb $swap"
# statm's resident and status's VmRSS are the same counters, in pages and KiB
page_kb=$(($(getconf PAGESIZE) / 1024))
d=$((got - want))
[ ${d#-} -le $page_kb ] || fail "used_kb $got, VmRSS + VmSwap $want"
echo "ok used_kb $got KiB (VmRSS $1 + VmSwap $2 KiB)"

# JSON carries used_kb with the default columns too (SWAP is shown)
"$MEMTOP" --json -n 1 -p "$child" >"$tmp/out" || fail "memtop --json exited $?"
[ "$(jq '.processes[0].used_kb | type' "$tmp/out")" = '"number"' ] ||
	fail "used_kb missing with the default columns: $(head -c 300 "$tmp/out")"

# batch text: the USED column, sortable
"$MEMTOP" -b -n 1 -p "$child" --columns pid,rss,swap,used,cmd -o used >"$tmp/out" ||
	fail "memtop -b -o ...,used exited $?"
grep -q '^ *PID  *RSS  *SWAP  *USED COMMAND' "$tmp/out" || fail "no USED title: $(cat "$tmp/out")"
line=$(grep "^ *$child " "$tmp/out") || fail "child $child not listed: $(cat "$tmp/out")"
set -- $line
[ "$4" = "$(fmt_kb "$got")" ] || [ "$4" = "$(fmt_kb "$want")" ] ||
	fail "USED cell '$4' for $got KiB: $line"
echo "ok USED column: $line"
