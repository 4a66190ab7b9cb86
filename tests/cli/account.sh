#!/bin/sh
# memtop-test: quiet
# The memory account (--account --json) against /proc on the real kernel: 200 MB written
# to a new tmpfs grow the shmem part by 200 MB (5 %) and the mount is listed with its use;
# 100,000 files in a directory on disk grow the reclaimable slab part as much as
# /proc/slabinfo's reclaimable caches grew; a SysV shm segment is listed; a 100 MB
# anonymous process grows the processes' part by its RssAnon; and each time the parts sum
# to MemTotal within 1 %. A part is read from /proc/meminfo just before and after memtop's
# read: where the machine's memory moved more than the check's margin meanwhile (other
# work), the step is tried again.
# (a sanitized memtop's own anonymous memory, tens of MB of shadow and quarantine that vary
# from run to run, is in the AnonPages it reads; asan:screen/account.sh reads the account's
# files under the sanitizers, asan:unit parses them)
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root (mount, /proc/slabinfo)"
command -v jq >/dev/null || skip "needs jq"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
child= shmid=
cleanup() {
	[ -n "$child" ] && kill "$child" 2>/dev/null
	[ -n "$shmid" ] && ipcrm -m "$shmid" 2>/dev/null
	mountpoint -q "$tmp/t" 2>/dev/null && umount "$tmp/t"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

mkdir "$tmp/t" "$tmp/files"
mount -t tmpfs -o size=300m memtop-test "$tmp/t" || skip "cannot mount a tmpfs"

mi() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
# reclaimable slab by /proc/slabinfo: num_slabs x pagesperslab of each cache whose sysfs
# reclaim_account is 1, KiB
slabinfo_rcl() {
	awk -v page=$(($(getconf PAGESIZE) / 1024)) 'NR > 2 {
		f = "/sys/kernel/slab/" $1 "/reclaim_account"
		r = ""
		if ((getline r <f) > 0 && r == 1)
			s += $15 * $6 * page
		close(f)
	} END { print s + 0 }' /proc/slabinfo
}
# snap NAME KEY: memtop's account into $tmp/NAME.json, meminfo's KEY before and after into
# $tmp/NAME.drift (the largest move), slabinfo's reclaimable after into $tmp/NAME.slab
snap() {
	b=$(mi "$2")
	"$MEMTOP" --account --json -n 1 --no-bpf -p $$ >"$tmp/$1.json" || fail "memtop exited $?"
	a=$(mi "$2")
	echo $((a > b ? a - b : b - a)) >"$tmp/$1.drift"
	echo $(((a + b) / 2)) >"$tmp/$1.mid"
	slabinfo_rcl >"$tmp/$1.slab"
	sums "$1"
}
part() { jq -r ".account.$2.size_kb" "$tmp/$1.json"; }
# the parts, each once, sum to MemTotal within 1 % (and memtop says so)
sums() {
	jq -r '.account | [.total_kb, ([to_entries[] | select(.value | type == "object") |
		.value.size_kb] | add), .sum_kb] | @tsv' "$tmp/$1.json" >"$tmp/$1.sum"
	read -r total parts said <"$tmp/$1.sum"
	d=$((parts > total ? parts - total : total - parts))
	[ $((d * 100)) -le "$total" ] || fail "$1: the parts sum to $parts KiB, MemTotal is $total"
	[ "$said" = "$parts" ] || fail "$1: sum_kb $said, the parts $parts"
}
# try STEP MAX_DRIFT KEY NAME: snap NAME until meminfo's KEY moved at most MAX_DRIFT KiB
# around memtop's read (20 tries)
try() {
	n=0
	while :; do
		snap "$3" "$2"
		[ "$(cat "$tmp/$3.drift")" -le "$1" ] && return 0
		n=$((n + 1))
		[ $n -lt 20 ] || fail "$3: $2 kept moving more than $1 KiB around memtop's read"
		sleep 0.5
	done
}
near() { # near GOT WANT PCT SLACK_KIB
	d=$(($1 > $2 ? $1 - $2 : $2 - $1))
	[ $((d * 100)) -le $(($2 * $3 + $4 * 100)) ]
}

# shmem: a 200 MB file in the new tmpfs
try 4096 Shmem before
dd if=/dev/zero of="$tmp/t/f" bs=1M count=200 status=none || fail "dd into the tmpfs failed"
try 4096 Shmem tmpfs
grew=$(($(part tmpfs shmem) - $(part before shmem)))
near "$grew" 204800 5 0 || fail "the shmem part grew $grew KiB, not 204800 (5 %)"
echo "shmem part: +$grew KiB for 204800 written"
used=$(jq -r --arg m "$tmp/t" '.account.tmpfs[] | select(.mount == $m) | .used_kb' \
	"$tmp/tmpfs.json")
[ -n "$used" ] || fail "$tmp/t not among the largest tmpfs mounts: $(jq -c .account.tmpfs "$tmp/tmpfs.json")"
near "$used" 204800 1 0 || fail "$tmp/t: $used KiB used, not 204800"

# reclaimable slab: 100,000 files made (dentries, inodes)
(cd "$tmp/files" && seq 100000 | xargs touch) || fail "could not make 100,000 files"
snap files SReclaimable
acct=$(($(part files slab_reclaimable) - $(part tmpfs slab_reclaimable)))
info=$(($(cat "$tmp/files.slab") - $(cat "$tmp/tmpfs.slab")))
[ "$info" -ge 20480 ] || fail "slabinfo's reclaimable caches grew only $info KiB for 100,000 files"
near "$acct" "$info" 10 4096 ||
	fail "the reclaimable slab part grew $acct KiB, slabinfo's reclaimable caches $info KiB"
echo "slab reclaimable part: +$acct KiB, slabinfo's reclaimable caches +$info KiB"
rm -rf "$tmp/files"

# a SysV segment of 4 MiB: listed with its size
shmid=$(ipcmk -M 4194304 | grep -o '[0-9]*$') || skip "ipcmk -M failed"
snap shm MemFree
jq -e --argjson id "$shmid" '.account.shm[] | select(.shmid == $id and .size_kb == 4096)' \
	"$tmp/shm.json" >/dev/null || fail "shm segment $shmid not listed: $(jq -c .account.shm "$tmp/shm.json")"
echo "shm segment $shmid listed"

# processes' anonymous: a 100 MB process. Other work on the machine moves AnonPages too
# (a build's compilers start and end): memtop reads it three times without the process and
# three times with it, and of each three the read around which /proc/meminfo's AnonPages
# moved least counts; what other work added between those two reads is meminfo's AnonPages
# at the second less at the first, less the process's RssAnon. The part grew by the
# process's RssAnon and that (5 %, and how far AnonPages moved around the two reads). Where
# other work moved it by more than the process, the step is tried again (10 times)
steadiest() { # steadiest NAME: of NAME1..3, the one whose read AnonPages moved least around
	for k in 1 2 3; do echo "$(cat "$tmp/$1$k.drift") $1$k"; done | sort -n | head -n 1 | cut -d' ' -f2
}
n=0
while :; do
	for k in 1 2 3; do snap "noproc$k" AnonPages; done
	start_child 100 0 account-$$
	for k in 1 2 3; do snap "proc$k" AnonPages; done
	rss=$(awk '$1 == "RssAnon:" { print $2 }' "/proc/$child/status")
	kill "$child"
	wait "$child" 2>/dev/null
	child=
	np=$(steadiest noproc) wp=$(steadiest proc)
	grew=$(($(part "$wp" anon) - $(part "$np" anon)))
	other=$(($(cat "$tmp/$wp.mid") - $(cat "$tmp/$np.mid") - rss))
	moved=$(($(cat "$tmp/$wp.drift") + $(cat "$tmp/$np.drift")))
	if [ "${other#-}" -le "$rss" ]; then
		near "$grew" $((rss + other)) 5 "$moved" ||
			fail "the processes' part grew $grew KiB, the process's RssAnon is $rss (other work: $other KiB, AnonPages moved $moved KiB around the reads)"
		break
	fi
	n=$((n + 1))
	[ $n -lt 10 ] || skip "other work kept moving AnonPages by more than the process"
	sleep 0.5
done
echo "processes' part: +$grew KiB, the process's RssAnon $rss KiB (other work: $other KiB, AnonPages moved $moved KiB around the reads)"
echo "the parts summed to MemTotal within 1 % in every read"
