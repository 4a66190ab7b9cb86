#!/bin/sh
# The systemd units in contrib/ (the exporter and the recorder): systemd-analyze verify
# finds nothing to say of them (with ExecStart's binary the one built); each is hardened
# (ProtectSystem=strict, NoNewPrivileges, a capability bounding set, a RuntimeDirectory,
# systemd-analyze security's exposure under 5); the recorder rotates with --keep; and
# its flags, with its directory in a temporary one, record a sample; and memtop run with
# the units' capability bounding set alone loads every BPF program it loads as full root
# (JSON bpf.reason the same, empty), and without CAP_SYS_ADMIN does not (the set is not
# larger than needed).
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
command -v systemd-analyze >/dev/null || fail "no systemd-analyze (Debian package systemd; scripts/deps.sh test)"
command -v jq >/dev/null || skip "needs jq"
contrib="$(dirname "$0")/../../contrib"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# its memtops load their own programs, whatever service runs on the machine (their pins
# looked for where none are)
export MEMTOP_PINS_DIR=/sys/fs/bpf/memtop_units_$$
trap 'exit 1' INT TERM HUP

for u in memtop-exporter memtop-record; do
	f="$contrib/$u.service"
	[ -f "$f" ] || fail "no $f"
	sed "s|^ExecStart=/usr/local/bin/memtop|ExecStart=$MEMTOP|" "$f" >"$tmp/$u.service"
	grep -q "^ExecStart=$MEMTOP " "$tmp/$u.service" || fail "$u: ExecStart is not /usr/local/bin/memtop"
	systemd-analyze verify --man=no "$tmp/$u.service" >"$tmp/out" 2>&1 || fail "$u: $(cat "$tmp/out")"
	[ -s "$tmp/out" ] && fail "$u: systemd-analyze verify says: $(cat "$tmp/out")"
	for want in ProtectSystem=strict NoNewPrivileges=yes 'CapabilityBoundingSet=CAP_' \
		'RuntimeDirectory=' 'ProtectKernelModules=yes' 'DeviceAllow=/dev/kmsg r'; do
		grep -q "^$want" "$f" || fail "$u lacks $want"
	done
	level=$(systemd-analyze security --offline=yes "$tmp/$u.service" 2>/dev/null |
		sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
	awk -v l="$level" 'BEGIN { exit !(l != "" && l < 5) }' || fail "$u: exposure level '$level'"
	args=$(sed -n 's|^ExecStart=/usr/local/bin/memtop ||p' "$f")
	echo "ok $u: verified, exposure $level; memtop $args"
done
grep -q -- '--keep [0-9]' "$contrib/memtop-record.service" || fail "the recorder does not rotate with --keep"
grep -q -- '--serve 127.0.0.1:' "$contrib/memtop-exporter.service" || fail "the exporter does not listen on loopback"
# the recorder's flags record, in a directory of the test's (but --pin: the other tests'
# memtops, as root, would use its programs meanwhile; tests/bpf/pins.sh tests it)
args=$(sed -n 's|^ExecStart=/usr/local/bin/memtop ||p' "$contrib/memtop-record.service" |
	sed "s|--record-dir [^ ]*|--record-dir $tmp/rec|; s|-d [0-9]*|-d 0.2|; s| --pin||")
mkdir "$tmp/rec"
# shellcheck disable=SC2086 # the unit's flags are words
"$MEMTOP" $args -n 2 2>"$tmp/err" || fail "memtop $args: exit $?: $(cat "$tmp/err")"
ls "$tmp/rec"/memtop-*.rec >/dev/null 2>&1 || fail "memtop $args recorded nothing"
"$MEMTOP" --replay "$tmp/rec" --json >"$tmp/rj" 2>"$tmp/err" && [ "$(wc -l <"$tmp/rj")" = 2 ] ||
	fail "the recorder's files do not replay 2 samples: $(cat "$tmp/err")"
echo "ok the recorder's flags: 2 samples in $(ls "$tmp/rec")"

# memtop under the units' bounding set: every BPF program loads, the kernel log reads
[ "$(id -u)" = 0 ] || skip "needs root to drop to the units' capabilities"
command -v setpriv >/dev/null || skip "needs setpriv (util-linux)"
caps=$(sed -n 's/^CapabilityBoundingSet=//p' "$contrib/memtop-exporter.service")
[ "$caps" = "$(sed -n 's/^CapabilityBoundingSet=//p' "$contrib/memtop-record.service")" ] ||
	fail "the units' capabilities differ"
set=$(printf '%s\n' "$caps" | tr ' ' '\n' | sed 's/^CAP_//' | tr 'A-Z' 'a-z' | sed 's/^/+/' | paste -sd, -)
setpriv --bounding-set "-all,$set" --inh-caps=-all grep '^CapBnd' /proc/self/status >"$tmp/bnd" ||
	fail "setpriv failed"
setpriv --bounding-set "-all,$set" --inh-caps=-all "$MEMTOP" --json -n 2 -d 0.3 >"$tmp/j" 2>"$tmp/err" ||
	fail "memtop under $caps exited $?: $(cat "$tmp/err")"
reason=$(tail -n 1 "$tmp/j" | jq -r '.bpf.reason')
# as full root, for what this build loads anyway (the ASan build's own statm moves too
# much for the task iterator's check)
"$MEMTOP" --json -n 2 -d 0.3 2>/dev/null | tail -n 1 | jq -r .bpf.reason >"$tmp/root"
[ "$(tail -n 1 "$tmp/j" | jq .bpf.enabled)" = true ] && [ "$reason" = "$(cat "$tmp/root")" ] ||
	fail "under $caps ($(cat "$tmp/bnd")): BPF '$reason', as root '$(cat "$tmp/root")'"
case "$MEMTOP" in */asan/*) ;; *) [ -z "$reason" ] || fail "BPF partly off as root: $reason" ;; esac
# and with one fewer (CAP_SYS_ADMIN), something is lost: the set is not larger than needed
less=$(printf '%s\n' "$set" | sed 's/,+sys_admin//')
setpriv --bounding-set "-all,$less" --inh-caps=-all "$MEMTOP" --json -n 1 >"$tmp/j2" 2>/dev/null
echo "ok under $caps: BPF whole; without CAP_SYS_ADMIN: $(tail -n 1 "$tmp/j2" | jq -r .bpf.reason)"
