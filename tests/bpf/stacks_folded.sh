#!/bin/sh
# memtop-test: beside others
# memtop --stacks --folded -- CMD: the command started under the sampler, its stacks in
# the folded format of flame graphs. cfi_grow (no frame pointers) faults 25,600 pages
# through six nested functions: every line parses as "[KIND];frame;...;frame COUNT",
# root first; the fault counts add up to 25,600 within 15 %; its top fault stack,
# root first from main, is perf record --call-graph dwarf's top stack of the same
# command (perf script folded here by awk), with a share within 5 points of perf's.
# Debian's sort, started so, has stacks from ld.so's _start (sampled from its first
# instruction), none truncated. memtop exits with the command's status; under sudo
# (SUDO_UID, SUDO_GID, SUDO_USER) the command runs as that user.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "$TESTS/dd_grow.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
stacks_available
command -v perf >/dev/null || fail "perf is not installed (scripts/deps.sh installs linux-perf)"
PAGES=25600
CMD="exec '$HELPERS/cfi_grow' $PAGES 10 >/dev/null"

# cfi_grow waits after its growth until its input ends: 3 s, so that memtop unwinds its
# stacks while it lives (a stack unwound after the process's end, with a module list read
# before its last execve, has no user frames)
{
	printf 'go\n'
	sleep 3
} | "$MEMTOP" --stacks --folded -- sh -c "$CMD" >"$tmp/out" 2>"$tmp/err" ||
	fail "memtop --stacks --folded -- cfi_grow: $(cat "$tmp/err")"
bad=$(grep -Evc '^\[(fault|kfault|brk|mmap|munmap)\](;[^;]+)+ [0-9]+$' "$tmp/out")
[ "$bad" = 0 ] || fail "$bad lines not folded: $(grep -Ev '^\[(fault|kfault|brk|mmap|munmap)\](;[^;]+)+ [0-9]+$' "$tmp/out" | head -3)"
faults=$(awk '/^\[fault\]/ { s += $NF } END { print s + 0 }' "$tmp/out")
[ "$faults" -ge $((PAGES * 85 / 100)) ] && [ "$faults" -le $((PAGES * 115 / 100)) ] ||
	fail "fault stacks add up to $faults, cfi_grow faulted $PAGES"
# ours: fault stacks' user frames from main inward, with their counts, most first
awk '/^\[fault\]/ { n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";"); s = ""; on = 0
	for (i = 2; i <= k; i++) { if (f[i] == "main") on = 1
		if (on && f[i] !~ /_\[k\]$/) s = s == "" ? f[i] : s ";" f[i] }
	if (s != "") c[s] += n }
	END { for (s in c) print c[s], s }' "$tmp/out" | sort -rn >"$tmp/ours"

printf 'go\n' | perf record -q -e exceptions:page_fault_user --call-graph dwarf -o "$tmp/perf.data" \
	-- sh -c "$CMD" >"$tmp/perf.out" 2>&1 || fail "perf record: $(cat "$tmp/perf.out")"
# perf's samples folded: user frames root first, from main inward
perf script -i "$tmp/perf.data" -F ip,sym 2>/dev/null |
	awk 'NF == 0 { if (s != "") c[s]++; s = ""; on = 1; next }
		{ if ($1 ~ /^ffff/ || !on) next
		  sym = $2; sub(/\+0x[0-9a-f]+$/, "", sym)
		  s = s == "" ? sym : sym ";" s
		  if (sym == "main") on = 0 }
		END { if (s != "") c[s]++; for (s in c) if (s ~ /^main;/) print c[s], s }' | sort -rn >"$tmp/perf"
[ -s "$tmp/perf" ] || fail "perf recorded no stacks through main"
top() { awk 'NR == 1 { print $2 }' "$1"; }
share() { awk '{ all += $1 } NR == 1 { top = $1 } END { printf "%d\n", all ? top * 100 / all : 0 }' "$1"; }
[ "$(top "$tmp/ours")" = "$(top "$tmp/perf")" ] ||
	fail "top stacks differ: memtop $(head -1 "$tmp/ours"), perf $(head -1 "$tmp/perf"); memtop's first lines: $(head -3 "$tmp/out")"
o=$(share "$tmp/ours") p=$(share "$tmp/perf")
[ "$o" -ge $((p - 5)) ] && [ "$o" -le $((p + 5)) ] || fail "top stack's share: memtop $o %, perf $p %"
echo "cfi_grow: top stack $(top "$tmp/ours"), $o % (perf $p %); $faults faults"

# --- Debian's sort from its first instruction ---
seq 1 200000 | shuf >"$tmp/rand.txt"
"$MEMTOP" --stacks --folded -- sort "$tmp/rand.txt" -o /dev/null >"$tmp/out" 2>"$tmp/err" ||
	fail "memtop --stacks --folded -- sort: $(cat "$tmp/err")"
n=$(grep -c '^\[[a-z]*\];_start;_dl_start' "$tmp/out")
[ "$n" -gt 0 ] || fail "no stack from ld.so's _start: $(head -5 "$tmp/out")"
grep -q '^\[[a-z]*\];\[truncated\];_start;_dl_start' "$tmp/out" && fail "loader stacks truncated"
echo "sort: $n stacks from ld.so's _start"

# --- exit status, and the user under sudo ---
"$MEMTOP" --stacks --json -- sh -c 'exit 3' >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 3 ] || fail "memtop exited $rc, the command 3: $(cat "$tmp/err")"
jq -e .stacks "$tmp/out" >/dev/null || fail "no JSON: $(head -c 300 "$tmp/out")"
nobody_turn
chmod 777 "$tmp"
SUDO_USER=nobody SUDO_UID=65534 SUDO_GID=65534 "$MEMTOP" --stacks --json -- \
	sh -c "id -u >'$tmp/uid'" >"$tmp/out" 2>"$tmp/err" || fail "as nobody: $(cat "$tmp/err")"
[ "$(cat "$tmp/uid")" = 65534 ] || fail "the command ran as uid $(cat "$tmp/uid"), not SUDO_UID 65534"
echo "exit status passed on; under sudo the command runs as SUDO_UID"
