#!/bin/sh
# memtop-test: beside others
# The screen's first table comes from /proc while the BPF programs load on a thread: held
# back (MEMTOP_BPF_GATE), memtop shows its table with the process asked for and its RSS as
# /proc/PID/status gives it, "BPF loading…" and "…" in the BPF columns (SWIN/s, RECLAIM),
# and holds no BPF link. Once the load goes on, the same screen says "BPF on" with every
# concern on (the task iterator's check of memtop's own statm passes while the refreshes
# of 2,000 more processes move memtop's memory on the other thread), the columns fill in
# with numbers and memtop holds the programs' links. --json --no-wait
# prints its first line with bpf.loading true and the BPF columns null, the later lines
# with BPF on; -b -n 1 loads no program at all, and says so.
. "$(dirname "$0")/lib.inc"
. "$TESTS/dd_grow.inc"
need_bpf

gatef="$WORK/gate"
"$HELPERS/many_children" 2000 >"$WORK/kids" &
KIDS="$KIDS $!"
wait_ready "$WORK/kids" || fail "many_children never got ready"
sleep 300 9>&- &
child=$!
KIDS="$KIDS $child"
tm_start 160 30 "echo \$\$ >'$WORK/mt'; exec env LANG=C.UTF-8 MEMTOP_BPF_GATE='$gatef' '$MEMTOP' -d 0.3 -p $child --columns pid,rss,swapin,reclaim,cmd"
wait_for "BPF loading…" || fail "no 'BPF loading…' while the load is held"
MT=$(cat "$WORK/mt")
row=$(screen_text | grep -E "^ *$child ")
[ -n "$row" ] || fail "no row for pid $child: $(screen_text)"
rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$child/status")
want=$(fmt_kb "$rss")
printf '%s\n' "$row" | grep -qF -- "$want" || fail "row '$row' lacks RSS $want (/proc: $rss kB)"
[ "$(printf '%s\n' "$row" | grep -o '…' | wc -l)" -eq 2 ] || fail "not two '…' cells: '$row'"
screen_text | grep -q 'SWIN/s' || fail "no SWIN/s column while loading"
[ "$(bpf_links "$MT")" -eq 0 ] || fail "memtop holds $(bpf_links "$MT") BPF links before loading"
echo "held: $row"

touch "$gatef"
wait_bpf_on || fail "BPF never came on"
line=$(screen_text | grep '^BPF on')
printf '%s\n' "$line" | grep -q ' off: ' && fail "a concern is off: $line"
eventually $HANG sh -c "tmux -L '$TMUX_SOCK' capture-pane -p | grep -E '^ *$child ' | grep -qE ' [0-9.]+[KMG]? +[0-9.]+[a-z]* +sleep'" ||
	fail "the BPF columns never filled in: $(screen_text | grep -E "^ *$child ")"
row=$(screen_text | grep -E "^ *$child ")
printf '%s\n' "$row" | grep -q '…' && fail "still '…' after loading: $row"
[ "$(bpf_links "$MT")" -gt 0 ] || fail "memtop holds no BPF link after loading"
echo "loaded: $row, $(bpf_links "$MT") links"
tm_kill

# --json --no-wait: the first line before BPF, the lines after the load with it (however
# long the load takes; the load held until the first line is out, as processes the tests
# beside start, 4,000 and more, would have it load first)
MEMTOP_BPF_GATE="$WORK/gate_json" "$MEMTOP" --json --no-wait -d 0.3 -p "$child" >"$WORK/j" &
jq_mt=$!
KIDS="$KIDS $jq_mt"
eventually $HANG test -s "$WORK/j" || fail "--json --no-wait printed nothing"
: >"$WORK/gate_json"
# (the lines before the last: the last may be half written; two after the load, as a rate
# takes two samples)
loaded() { [ "$(sed '$d' "$WORK/j" | grep -c '"loading":false')" -ge 2 ]; }
eventually $HANG loaded || fail "--json --no-wait: no lines after the load: $(tail -n 1 "$WORK/j" | jq -c .bpf)"
kill "$jq_mt"
head -n 1 "$WORK/j" | jq -e '.bpf.loading == true and .bpf.enabled == false and
	.processes[0].swapin_per_s == null' >/dev/null ||
	fail "first line: $(head -n 1 "$WORK/j" | jq -c '.bpf, .processes[0].swapin_per_s')"
sed '$d' "$WORK/j" | grep '"loading":false' | sed -n 2p | jq -e '.bpf.enabled == true and
	(.processes[0].swapin_per_s | type == "number")' >/dev/null ||
	fail "the second line after the load: $(grep '"loading":false' "$WORK/j" | sed -n 2p | jq -c '.bpf, .processes[0].swapin_per_s')"
echo "--json --no-wait: first line loading, those after the load with BPF on"

# -b -n 1: no program loaded (its reason says so), the table there
"$MEMTOP" -b -n 1 -p "$child" >"$WORK/b" || fail "-b -n 1 exited $?"
grep -q '^BPF off: not loaded for one refresh (-n 1)' "$WORK/b" || fail "-b -n 1: $(grep BPF "$WORK/b")"
grep -qE "^ *$child " "$WORK/b" || fail "-b -n 1: no row for $child"
echo "-b -n 1: no BPF loaded"
