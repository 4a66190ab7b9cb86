#!/bin/busybox sh
# The guest's /init (busybox sh, in the initramfs boot.sh makes): loads the modules listed
# in /modules, mounts the host's root (shared read-only by qemu over 9p) at /host with
# writable scratch over it, then runs the job named on the kernel command line (job=PATH,
# a path on the host) in a chroot of /host. Prints MEMTOP-LANE-EXIT=N, N the job's exit
# status, on the console and on the second serial port, and powers the machine off.
/bin/busybox mkdir -p /bin /sbin /usr/bin /usr/sbin /proc /sys /dev /host
/bin/busybox --install -s
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

# a step that fails ends the boot with its message (and no MEMTOP-LANE-EXIT line)
die() {
	echo "memtop-lane: $*"
	poweroff -f
}
# busybox's modprobe loads each with what it needs (lib/modules/RELEASE/modules.dep); it
# is also the one the kernel runs for a module it asks for
while read -r m; do
	modprobe "$m" || echo "memtop-lane: cannot load module $m"
done </modules

# cache=loose: the guest keeps what it read of the host's files (programs start several
# times faster under emulation); what changes on the host meanwhile it may not see
mount -t 9p -o trans=virtio,version=9p2000.L,ro,msize=262144,cache=loose host /host ||
	die "cannot mount the host's root over 9p"
# what tests write: tmpfs on /tmp, /run, /root (HOME) and /dev/shm; the ext4 disk on
# /var/tmp (swapfiles and files whose page cache must be reclaimable)
for d in tmp run root; do
	mount -t tmpfs -o mode=1777 tmpfs "/host/$d" || die "cannot mount tmpfs on /$d"
done
chmod 700 /host/root
mount -t proc proc /host/proc || die "cannot mount /proc"
mount -t sysfs sysfs /host/sys || die "cannot mount /sys"
mount -t devtmpfs devtmpfs /host/dev || die "cannot mount /dev"
mkdir -p /host/dev/pts /host/dev/shm
mount -t devpts -o ptmxmode=0666 devpts /host/dev/pts || die "cannot mount /dev/pts"
mount -t tmpfs -o mode=1777 tmpfs /host/dev/shm || die "cannot mount /dev/shm"
mount -t ext4 /dev/vda /host/var/tmp || die "cannot mount the scratch disk on /var/tmp"
chmod 1777 /host/var/tmp
# cgroup v2 alone, every controller the tests use delegated from the root; BPF's
# filesystem for pins. No tracefs nor debugfs: memtop must cope without them.
mount -t cgroup2 cgroup2 /host/sys/fs/cgroup || die "cannot mount cgroup2"
echo "+memory +cpu +io +pids" >/host/sys/fs/cgroup/cgroup.subtree_control ||
	die "cannot enable the cgroup controllers"
mount -t bpf bpf /host/sys/fs/bpf || die "cannot mount bpffs"
ip link set lo up || die "cannot bring up the loopback interface"

[ -n "${job:-}" ] || die "no job=PATH on the kernel command line"
echo "memtop-lane: running $job"
# the second serial port carries the results alone (the kernel writes to the first)
chroot /host /usr/bin/env -i HOME=/root TERM=xterm LANG=C.UTF-8 \
	PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	MEMTOP_LANE_RESULTS=/dev/ttyS1 /bin/sh "$job" </dev/null
rc=$?
echo "MEMTOP-LANE-EXIT=$rc"
echo "MEMTOP-LANE-EXIT=$rc" >/dev/ttyS1
swapoff -a 2>/dev/null
sync
umount /host/var/tmp
poweroff -f
