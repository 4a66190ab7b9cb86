#!/bin/sh
# memtop-test: alone
# memtop started inside a memory cgroup limited to 256 MiB (its shell moved there before
# exec): JSON system.cgroup gives that cgroup's path, usage and limit, and batch a Lim:
# line; started in an unlimited cgroup below it, the same ancestor's limit. Where memtop's
# cgroups have no limit below RAM, neither.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/memcg.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'cg_cleanup; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
need_memcg

tag=cgself$$
cg_make "memtop-$tag" $((256 << 20))
lim_dir=$cg_dir lim_path=$cg_path
cg_make "memtop-$tag/inner"
inner_dir=$cg_dir

# in_cgroup DIR NAME ARGS...: memtop ARGS run inside DIR, its output in $tmp/NAME
in_cgroup() {
	_d=$1 _n=$2
	shift 2
	cg_run "$_d" "$tmp/$_n" "$MEMTOP" "$@"
	wait "$cg_pid" || fail "memtop $* in $_d exited $?: $(cat "$tmp/$_n")"
}

for where in "$lim_dir" "$inner_dir"; do
	in_cgroup "$where" json --json -n 1 -d 0.2
	jq -e --arg p "$lim_path" '.system.cgroup.path == $p and .system.cgroup.limit_kb == 262144 and
		.system.cgroup.usage_kb > 0 and .system.cgroup.usage_kb <= 262144' "$tmp/json" >/dev/null ||
		fail "in $where: system.cgroup is $(jq -c .system.cgroup "$tmp/json")"
	echo "in ${where#"$CGROOT"}: system.cgroup $(jq -c .system.cgroup "$tmp/json")"
done

in_cgroup "$lim_dir" batch -b -n 1 -d 0.2 -p 1
grep -Eq "^Lim: +Used [0-9.]+[KM], Limit 256M, [0-9.]+%, cgroup $lim_path\$" "$tmp/batch" ||
	fail "batch has no Lim: line for the 256 MiB limit: $(sed -n 1,5p "$tmp/batch")"
grep '^Lim:' "$tmp/batch"

# outside: only where no cgroup of this shell's has a limit below RAM
own=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ || ($1 == 0 && $2 == "") { print $3; exit }' /proc/self/cgroup)
total=$(awk '$1 == "MemTotal:" { printf "%.0f", $2 * 1024 }' /proc/meminfo)
limited=0
d=$CGROOT$own
while [ "${#d}" -ge "${#CGROOT}" ]; do
	l=$(cat "$d/$CGLIMIT" 2>/dev/null)
	case "$l" in "" | max) ;; *) [ "$l" -lt "$total" ] && limited=1 ;; esac
	[ "$d" = "$CGROOT" ] && break
	d=${d%/*}
done
if [ $limited = 0 ]; then
	"$MEMTOP" --json -n 1 -d 0.2 | jq -e '.system | has("cgroup") | not' >/dev/null ||
		fail "system.cgroup without a limit"
	"$MEMTOP" -b -n 1 -d 0.2 -p 1 | grep -q '^Lim:' && fail "a Lim: line without a limit"
	echo "outside a limited cgroup: no system.cgroup, no Lim: line"
fi
