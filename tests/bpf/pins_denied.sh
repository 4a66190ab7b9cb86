#!/bin/sh
# memtop-test: alone
# --pin where no pins can be made says why in one line and exits non-zero (the pins are
# what was asked for): as nobody, and as root without CAP_SYS_ADMIN where no bpffs is
# mounted (a mount namespace of its own), which memtop cannot mount then. Nothing is
# pinned, and no recording is begun.
. "$(dirname "$0")/lib.inc"
. "$(dirname "$0")/pins.inc"
need_bpf
command -v setpriv >/dev/null || skip "no setpriv (util-linux)"
command -v unshare >/dev/null || skip "no unshare (util-linux)"
chmod 777 "$WORK"

# refused WHAT WANT CMD...: CMD (memtop --record --pin) exits non-zero with one line on
# stderr, memtop's, matching WANT (an extended regular expression)
refused() {
	what=$1 want=$2
	shift 2
	"$@" >"$WORK/out" 2>"$WORK/err"
	rc=$?
	[ $rc != 0 ] || fail "$what: memtop --pin exited 0 (stderr: $(cat "$WORK/err"))"
	[ $rc -lt 128 ] || fail "$what: memtop --pin died of signal $((rc - 128))"
	[ "$(wc -l <"$WORK/err")" = 1 ] || fail "$what: stderr is not one line: $(cat "$WORK/err")"
	grep -Eqx "memtop: $want" "$WORK/err" || fail "$what: stderr: $(cat "$WORK/err")"
	[ -e "$WORK/x.rec" ] && fail "$what: a recording was begun"
	[ -e "$PINS" ] && fail "$what: $PINS made: $(ls "$PINS")"
	echo "$what: exit $rc, $(cat "$WORK/err")"
}
refused "as nobody" "--pin: .*: (Permission denied|Operation not permitted) \(not root\)" \
	setpriv --reuid=65534 --regid=65534 --clear-groups \
	"$MEMTOP" --record "$WORK/x.rec" --pin -d 0.3 -n 2
refused "no bpffs, no CAP_SYS_ADMIN" "--pin: mounting bpffs on /sys/fs/bpf: Operation not permitted" \
	unshare -m sh -c 'while umount /sys/fs/bpf 2>/dev/null; do :; done
		exec setpriv --bounding-set=-sys_admin --inh-caps=-sys_admin "$@"' sh \
	"$MEMTOP" --record "$WORK/x.rec" --pin -d 0.3 -n 2
