#!/bin/sh
# memtop-test: beside others
# Whole stacks and cut ones, told apart. A process sampled from before it executes
# Debian's sleep: its loader's stacks end at ld.so's _start, which has no CFI and is the
# first code of every process: not truncated. Walking frame pointers (--unwind fp) in a
# program without them, the stacks one frame deep are truncated (fp_one_frame). No
# kernel frame is the sampler's own (__traceiter_*, bpf_*).
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "$TESTS/dd_grow.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'dd_stop; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
stacks_available
[ "$(uname -m)" = x86_64 ] || skip "unwinding copied stacks is for x86-64"
j() { jq -r "$1" "$tmp/out"; }
no_sampler_frames() {
	j '.stacks[].frames[] | select(.kernel) | .symbol // empty' | grep -E '^(__traceiter_|__bpf_trace_|bpf_)' &&
		fail "the sampler's own kernel frames are shown"
	return 0
}

# --- the loader's stacks, from the first instruction ---
# exec_on_go waits for "go" (dd_start's fifo), then becomes sleep 3
dd_start sleep 3 "$HELPERS/exec_on_go"
"$MEMTOP" --stacks "$DD_PID:2" --json >"$tmp/out" 2>"$tmp/err" &
mt=$!
wait_links $mt $STACKS_LINKS || fail "memtop --stacks did not attach: $(cat "$tmp/err")"
echo go >&8
wait $mt || fail "memtop --stacks failed: $(cat "$tmp/err")"
# the last user frame of each stack, with its module's file name
last='[.frames[] | select(.kernel | not)] | last | select(.) | (.symbol // "?") + " " + (.module | split("/") | last)'
n=$(j "[.stacks[] | select(($last) | test(\"^_start ld-linux\"))] | length")
[ "$n" -gt 0 ] || fail "no stack ends at ld.so's _start: $(j "[.stacks[] | $last] | unique")"
bad=$(j "[.stacks[] | select(($last) | test(\"^_start ld-linux\")) | select(.truncated)] | length")
[ "$bad" = 0 ] || fail "$bad of $n stacks ending at ld.so's _start truncated: $(j '[.stacks[] | select(.truncated) | .truncated_reason] | unique')"
grep -q '_dl_start' "$tmp/out" || fail "no _dl_start frame"
no_sampler_frames
echo "sleep from its first instruction: $n stacks end at ld.so's _start, none truncated"
dd_stop

# --- frame pointers walked where there are none ---
dd_start 25600 10 "$HELPERS/dd_grow_nofp"
dd_sample --json --unwind fp
# the walk ends at once; a leaf's caller may be put back from the stack: two frames
short='[.stacks[] | select([.frames[] | select(.kernel | not)] | length | . >= 1 and . <= 2)]'
one=$(j "$short | length")
[ "$one" -gt 0 ] || fail "no short stacks walking frame pointers without them"
j "$short | map([.truncated, .truncated_reason]) | unique | .[] | tostring" >"$tmp/kinds"
[ "$(cat "$tmp/kinds")" = '[true,"fp_one_frame"]' ] || fail "short stacks: $(cat "$tmp/kinds")"
[ "$(j .truncated_stacks)" -ge "$one" ] || fail "truncated_stacks $(j .truncated_stacks) < $one"
no_sampler_frames
echo "--unwind fp without frame pointers: $one stacks of one frame walked, all truncated (fp_one_frame)"
