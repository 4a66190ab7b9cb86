#!/bin/sh
# boot.sh KVER JOBFILE: boots Debian's kernel KVER (fetch.sh) under qemu and runs JOBFILE
# with /bin/sh inside it, in a chroot of this machine's root, which the guest sees
# read-only over 9p (tests/kernels/init.sh is its /init; it says what is mounted where).
# JOBFILE must be readable from the guest: a file of this machine, outside /tmp, /run and
# /root (the guest's own tmpfs).
# Beside JOBFILE (its name without .job, here JOB): the console, without carriage
# returns and terminal escapes, in JOB.log (and on stdout, each line prefixed with
# [KVER]); what the job wrote to the guest's second serial port (guest.sh's result lines
# alone) in JOB.results; the guest's scratch disk while it runs, JOB.img. So guests of
# different jobs, of the same kernel or not, may run at once.
# Exit status: the job's, or 124 when the guest did not finish in KERNEL_TIMEOUT seconds
# (600), or 125 when it ended without the job's status.
set -u
kver=${1:-} job=${2:-}
if [ -z "$kver" ] || ! [ -f "$job" ]; then
	echo "usage: boot.sh KVER JOBFILE (a file that exists)" >&2
	exit 2
fi
job=$(realpath "$job")
case "$job" in
*[!A-Za-z0-9/._+-]*)
	echo "boot.sh: the job's path '$job' must not need quoting (kernel command line)" >&2
	exit 2
	;;
esac
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../.." || exit 1
sh "$here/fetch.sh" "$kver" || exit 1
base=${job%.job}
log=$base.log results=$base.results disk=$base.img status=$base.status
dir=$PWD/build/kernels/$kver
release=$(cat "$dir/release")
mods=$dir/modules/lib/modules/$release

# the initramfs: busybox, /init, and the modules for virtio, 9p, ext4 and zram with
# whatever they depend on (softdeps too: ext4's crc32c), as the host's modprobe resolves
# them from depmod's index; the guest's busybox modprobe loads them by name from the
# same index. Made again when init.sh or this script is newer.
initrd=$dir/initrd.cpio
if [ -z "$(find "$initrd" -newer "$here/init.sh" -newer "$here/boot.sh" 2>/dev/null)" ]; then
	tree=$(mktemp -d "$dir/initrd.XXXXXX") || exit 1
	mkdir -p "$tree/bin" "$tree/lib/modules/$release"
	cp /bin/busybox "$tree/bin/busybox" && cp "$here/init.sh" "$tree/init" &&
		chmod 755 "$tree/init" || exit 1
	cp "$mods"/modules.dep "$mods"/modules.alias "$mods"/modules.softdep \
		"$mods"/modules.builtin "$tree/lib/modules/$release/" || exit 1
	for m in virtio_pci virtio_blk 9pnet_virtio 9p ext4 zram; do
		modprobe -d "$dir/modules" -S "$release" --show-depends "$m" ||
			{ echo "boot.sh: no module $m in $release" >&2; exit 1; }
	done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }' >"$tree.files" || exit 1
	while read -r f; do
		rel=${f#"$dir/modules/"}
		mkdir -p "$tree/${rel%/*}" && cp "$f" "$tree/$rel" || exit 1
		m=${f##*/}
		echo "${m%.ko}"
	done <"$tree.files" >"$tree/modules"
	(cd "$tree" && find . | cpio -o -H newc --quiet) >"$tree.cpio" && mv "$tree.cpio" "$initrd" ||
		exit 1
	rm -rf "$tree" "$tree.files"
fi

# a fresh scratch disk for /var/tmp: 1 GiB, sparse
rm -f "$disk"
truncate -s 1G "$disk" && mkfs.ext4 -F -q "$disk" || exit 1

# KVM where it can be used, else emulation (TCG) with the guest's two CPUs taking turns on
# one host thread: with a thread each, a CPU may run kernel code that another has just
# patched (static keys flip as BPF programs attach) from before the patch, and the
# guest dies of a stray int3. KVM only on a CPU with virtualization (vmx, svm): a
# /dev/kvm without it is a paravirtual one (kvm-pvm) that runs only kernels built for
# it, and Debian's hang there without a line on the console
accel="-accel tcg,thread=single -cpu max"
[ -r /dev/kvm ] && [ -w /dev/kvm ] && grep -qwE 'vmx|svm' /proc/cpuinfo &&
	accel="-enable-kvm -cpu host"
rm -f "$status" "$results"
how=TCG
[ -z "${accel%%-enable-kvm*}" ] && how=KVM
echo "boot.sh: booting $release ($how), the console in ${log#"$PWD/"}"
# qemu's exit status goes to a file: the pipe that prefixes the lines hides it. It runs in
# the background, so that INT or TERM (^C, run.sh stopping) end it at once: timeout, in
# a process group of its own, passes TERM on to qemu.
pid=$base.pid
{
	# shellcheck disable=SC2086 # $accel is words
	timeout -k 10 "${KERNEL_TIMEOUT:-1200}" qemu-system-x86_64 $accel -nographic -no-reboot \
		-m 3G -smp 2 -nic none -serial mon:stdio -serial file:"$results" \
		-kernel "$dir/vmlinuz" -initrd "$initrd" \
		-append "console=ttyS0 quiet panic=-1 psi=1 job=$job" \
		-fsdev local,id=h,path=/,security_model=none,readonly=on,multidevs=remap \
		-device virtio-9p-pci,fsdev=h,mount_tag=host \
		-drive file="$disk",format=raw,if=virtio,cache=unsafe </dev/null 2>&1 &
	echo $! >"$pid"
	wait $!
	echo $? >"$status"
} | tr -d '\r' | sed 's/\x1b[^A-Za-z]*[A-Za-z]//g' | tee "$log" | sed "s/^/[$kver] /" &
trap 'kill "$(cat "$pid")" 2>/dev/null; wait; rm -f "$disk" "$status" "$pid"; exit 130' INT TERM HUP
wait $!
qemu=$(cat "$status" 2>/dev/null)
rm -f "$disk" "$status" "$pid"
sed -i 's/\r$//' "$results" 2>/dev/null
rc=$(sed -n 's/^MEMTOP-LANE-EXIT=\([0-9]*\)$/\1/p' "$results" 2>/dev/null | tail -n 1)
[ -n "$rc" ] && exit "$rc"
if [ "$qemu" = 124 ]; then
	echo "boot.sh: kernel $kver: the guest did not finish in ${KERNEL_TIMEOUT:-1200}s" >&2
	exit 124
fi
echo "boot.sh: kernel $kver: the guest ended without the job's status (see ${log#"$PWD/"})" >&2
exit 125
