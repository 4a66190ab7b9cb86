#!/bin/sh
# The memory account's vmalloc part (--account --json) leaves out the kernel stacks where
# the kernel vmallocs them (CONFIG_VMAP_STACK): it is VmallocUsed less the pages of
# /proc/vmallocinfo's stack areas, as this script sums them itself (the areas vmalloc'd by
# a function of the fork path, whichever the kernel names: alloc_thread_stack_node,
# dup_task_struct, copy_process, kernel_clone on 6.x, fork_idle), and those areas are the
# stacks /proc/meminfo's KernelStack counts (the same within the few that the fork path
# keeps for reuse, two a CPU, and the counter's per-CPU slack). Forks and exits elsewhere
# move both figures: /proc is read before and after memtop, and memtop's part must lie
# between the two reads (a few stacks' slack, for the moment between memtop's reads of
# meminfo and vmallocinfo); where the machine moved more meanwhile, or a burst of tasks
# came and went between memtop's own two reads, it is tried again (a wrong part is wrong
# at every try). Alone: the other tests' forks move both figures.
# memtop-test: quiet
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
[ -r /proc/vmallocinfo ] || skip "cannot read /proc/vmallocinfo (needs root)"
command -v jq >/dev/null || skip "needs jq"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

page=$(($(getconf PAGESIZE) / 1024))
cpus=$(getconf _NPROCESSORS_CONF)
# vmalloc'd stacks: "start-end size caller+off/len pages=N ... vmalloc ..." where the
# caller, its offset and a compiler's suffix (.isra.0) cut off, is of the fork path
stacks() {
	awk -v page="$page" '/ vmalloc( |$)/ {
		c = $3; sub(/[+.].*/, "", c)
		if (c !~ /^(alloc_thread_stack_node|dup_task_struct|copy_process|kernel_clone|_?do_fork|fork_idle|create_io_thread|vhost_task_create)$/)
			next
		for (i = 4; i <= NF; i++)
			if ($i ~ /^pages=/) { n = substr($i, 7); s += n * page }
	} END { print s + 0 }' /proc/vmallocinfo
}
mi() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
# read NAME: "VmallocUsed stacks KernelStack" into $tmp/NAME
read_proc() { echo "$(mi VmallocUsed) $(stacks) $(mi KernelStack)" >"$tmp/$1"; }

slack=128 # KiB: eight stacks forked or ended between memtop's two reads
# one_try: memtop's vmalloc part between VmallocUsed less the stacks before and after it
# (false, to be tried again, where other work moved it more than the slack meanwhile)
one_try() {
	read_proc before
	"$MEMTOP" --account --json -n 1 --no-bpf -p $$ >"$tmp/out.json" || fail "memtop exited $?"
	read_proc after
	read -r vb sb kb <"$tmp/before"
	read -r va sa ka <"$tmp/after"
	got=$(jq -r .account.vmalloc.size_kb "$tmp/out.json")
	b=$((vb - sb)) a=$((va - sa))
	lo=$((b < a ? b : a)) hi=$((b > a ? b : a))
	[ $((hi - lo)) -le $slack ] || return 1
	[ "$got" -ge $((lo - slack)) ] && [ "$got" -le $((hi + slack)) ] && return 0
	bad="the vmalloc part is $got KiB; VmallocUsed less vmallocinfo's stacks was $b KiB before memtop read, $a after (VmallocUsed $vb/$va, stacks $sb/$sa KiB)"
	return 1
}
bad=
if ! tries 20 one_try; then
	[ -n "$bad" ] && fail "$bad (the last of 20 tries)"
	skip "vmalloc'd memory kept moving more than $slack KiB around memtop's read"
fi
echo "vmalloc part $got KiB: VmallocUsed $va less $sa KiB of stacks (tries: $tries)"

# the stacks summed above are KernelStack's, where the kernel vmallocs them
vmap=$( (zcat /proc/config.gz 2>/dev/null || cat "/boot/config-$(uname -r)" 2>/dev/null) |
	grep -c '^CONFIG_VMAP_STACK=y')
if [ "$sa" -eq 0 ]; then
	[ "$vmap" != 1 ] || fail "CONFIG_VMAP_STACK=y, KernelStack $ka KiB, but no stack in vmallocinfo"
	echo "no vmalloc'd stacks on this kernel (KernelStack $ka KiB)"
	exit 0
fi
# KernelStack leaves out the stacks kept for reuse (two a CPU of up to 32 KiB) and may lag
# by its per-CPU counters' batches
# by its per-CPU counters' batches; a fork or exit between the two reads moves one: tried
# again
spare=$((cpus * 2 * 32 + cpus * 64))
same_stacks() {
	read_proc now
	read -r va sa ka <"$tmp/now"
	[ "$ka" -le $((sa + spare)) ] && [ "$ka" -ge $((sa - spare)) ]
}
tries 20 same_stacks || fail "vmallocinfo's stacks are $sa KiB, KernelStack $ka KiB (the last of 20 tries)"
echo "vmallocinfo's stacks $sa KiB, KernelStack $ka KiB"
