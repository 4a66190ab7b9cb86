#!/bin/sh
# memtop-test: beside others
# Full stacks for programs without frame pointers, unwound from copied stacks with CFI.
# cfi_grow (-O2 -fomit-frame-pointer -fasynchronous-unwind-tables) faults and calls mmap
# through six nested functions: memtop --stacks --json names all six in order, then
# main, in its fault and its mmap stacks, unwound by CFI (method dwarf), not truncated.
# perf record -e exceptions:page_fault_user --call-graph dwarf on the same run gives its
# top fault stack the same sequence of functions down to main. Debian's python3
# allocating in a loop: the top fault stack goes through _PyEval_EvalFrameDefault to
# Py_RunMain (or main), every user frame in an executable mapping of the process. With
# --stack-bytes 512 its stacks are cut where the copy ends: truncated, reason
# stack_copy, and their frames are the first frames of the full stacks, none invented.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "$TESTS/dd_grow.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
PERF="" PY=""
trap 'kill -INT $PERF 2>/dev/null; kill $PY 2>/dev/null; wait 2>/dev/null; dd_stop; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
stacks_available
[ "$(uname -m)" = x86_64 ] || skip "unwinding copied stacks is for x86-64"

PAGES=25600 MMAPS=10
SIX="cfi_six,cfi_five,cfi_four,cfi_three,cfi_two,cfi_one,main"
j() { jq -r "$1" "$tmp/out"; }
# user PRED: the user symbols of the top stack matching the jq predicate, comma-separated
user() { j "[.stacks[] | select($1)][0].frames | map(select(.kernel | not) | .symbol // \"?\") | join(\",\")"; }

# --- six nested functions, and perf on the same run ---
dd_start $PAGES $MMAPS "$HELPERS/cfi_grow"
if command -v perf >/dev/null; then
	perf record -q -e exceptions:page_fault_user --call-graph dwarf -p "$DD_PID" \
		-o "$tmp/perf.data" >"$tmp/perf.out" 2>&1 &
	PERF=$!
	sleep 1 # perf attaches
fi
dd_sample --json
[ "$(j .unwind)" = dwarf ] || fail "unwind $(j .unwind), not dwarf"
f=$(user '.kind == "fault"')
m=$(user '.kind == "mmap"')
case "$f" in "$SIX",*) ;; *) fail "top fault stack: $f, not $SIX..." ;; esac
case "$m" in *"$SIX",*) ;; *) fail "top mmap stack: $m, not ...$SIX..." ;; esac
[ "$(j '[.stacks[] | select(.kind == "fault")][0] | [.method, .truncated] | join(",")')" = dwarf,false ] ||
	fail "top fault stack: $(j '[.stacks[] | select(.kind == "fault")][0] | {method, truncated, truncated_reason}')"
n=$(j '[.stacks[] | select(.kind == "fault" and any(.frames[]; .symbol == "cfi_six")) | .count] | add // 0')
[ "$n" -ge $((PAGES * 85 / 100)) ] && [ "$n" -le $((PAGES * 115 / 100)) ] ||
	fail "fault stacks through cfi_six count $n, not $PAGES within 15 %"
[ "$(j '[.stacks[] | select(.kind == "mmap") | .count] | add')" -eq $MMAPS ] || fail "mmap count"
echo "fault: $f"
echo "mmap:  $m"

if [ -n "$PERF" ]; then
	kill -INT $PERF
	wait $PERF
	PERF=""
	perf script -i "$tmp/perf.data" -F ip,sym 2>/dev/null >"$tmp/perf.txt" ||
		fail "perf script failed: $(cat "$tmp/perf.out")"
	# each sample's frames on one line, user frames only, down to main; the most common
	awk 'NF == 0 { if (s != "") print s; s = ""; stop = 0; next }
		{ sym = $2; sub(/\+0x[0-9a-f]+$/, "", sym)
		  if ($1 ~ /^ffff/ || stop) next
		  s = s == "" ? sym : s "," sym
		  if (sym == "main") stop = 1 }
		END { if (s != "") print s }' "$tmp/perf.txt" | sort | uniq -c | sort -rn >"$tmp/perf.top"
	p=$(awk 'NR == 1 { print $2 }' "$tmp/perf.top")
	[ -n "$p" ] || fail "perf recorded no stacks: $(head -c 500 "$tmp/perf.txt")"
	ours=$(printf '%s\n' "$f" | sed 's/,main,.*/,main/')
	[ "$p" = "$ours" ] || fail "perf's top fault stack $p, memtop's $ours"
	echo "perf --call-graph dwarf agrees: $p ($(awk 'NR == 1 { print $1 }' "$tmp/perf.top") samples)"
else
	echo "perf not installed: the comparison with perf is left out"
fi
dd_stop

# --- Debian's python3 ---
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || skip "no $PYTHON"
cat >"$tmp/alloc.py" <<'PYEOF'
import time
keep = []
end = time.time() + 6
while time.time() < end:
    keep.append(b"x" * (1 << 16))
    if len(keep) > 2000:
        keep = []
PYEOF
# py_run ARGS...: memtop --stacks on a fresh python3, for 2 s, into $tmp/out
py_run() {
	"$PYTHON" "$tmp/alloc.py" &
	PY=$!
	sleep 0.5
	"$MEMTOP" --stacks "$PY" -d 2 --json "$@" >"$tmp/out" 2>"$tmp/err" ||
		fail "memtop --stacks on python3 $*: $(cat "$tmp/err")"
	awk '$2 ~ /x/ { split($1, r, "-"); print r[1], r[2] }' "/proc/$PY/maps" >"$tmp/exec"
	kill $PY
	wait $PY 2>/dev/null
	PY=""
}
# in_exec: every user frame address of the output in an executable mapping
in_exec() {
	j '.stacks[].frames[] | select(.kernel | not) | .address' | sort -u | while read -r a; do
		a=$((a)) in=0
		while read -r s e; do
			[ $a -ge $((0x$s)) ] && [ $a -lt $((0x$e)) ] && in=1 && break
		done <"$tmp/exec"
		[ $in = 1 ] || fail "frame $a lies in no executable mapping of python3"
	done || exit 1
}
py_run
top=$(user '.kind == "fault"')
case "$top" in
*_PyEval_EvalFrameDefault,*Py_RunMain* | *_PyEval_EvalFrameDefault,*main*) ;;
*) fail "python3's top fault stack does not reach Py_RunMain through _PyEval_EvalFrameDefault: $top" ;;
esac
in_exec
echo "python3: $top"
echo "python3: $(j '{ring_records, ring_bytes, unwind_cpu_s, unwind_cache_hits, truncated_stacks} | tostring')"
j '[.stacks[] | .frames | map(select(.kernel | not) | .symbol // "?") | join(",")] | .[]' >"$tmp/full"

py_run --stack-bytes 512
[ "$(j .stack_bytes)" = 512 ] || fail "stack_bytes $(j .stack_bytes)"
[ "$(j '[.stacks[] | select(.truncated)] | length')" -gt 0 ] || fail "no stack truncated with 512 bytes"
[ "$(j '[.stacks[] | select(.truncated) | .truncated_reason] | unique | join(",")')" = stack_copy ] ||
	fail "reasons: $(j '[.stacks[] | .truncated_reason] | unique')"
[ "$(j '[.stacks[] | select(.truncated | not)] | length')" -eq 0 ] || fail "a stack of 512 bytes reached the outermost frame"
in_exec
# the truncated stacks' functions begin those of full ones (python3 is started again:
# other addresses), none invented
j '[.stacks[] | select(.kind == "fault") | .frames | map(select(.kernel | not) | .symbol // "?") | join(",")] | .[0:3] | .[]' |
	while read -r cut; do
		[ -n "$cut" ] || continue
		grep -qF "$cut" "$tmp/full" || fail "truncated stack $cut begins no full stack"
	done || exit 1
echo "python3 with 512 bytes: $(j '.truncated_stacks') stacks truncated (stack_copy), their frames those of the full stacks"
