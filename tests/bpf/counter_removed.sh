#!/bin/sh
# Counters never go down: a real OOM kill in a 64 MiB memory cgroup, which the test then
# removes; memtop --serve --cgroups keeps that kill in the root's
# memtop_cgroup_oom_kills_kernel_total{path="/"}, which rose by at least the kernel's own
# count for the cgroup (memory.oom_control / memory.events, read before the removal) and
# never fell in any scrape, before, during or after the removal.
. "$(dirname "$0")/lib.inc"
need_bpf
command -v curl >/dev/null && command -v ss >/dev/null || skip "needs curl, ss"

port=$(free_port 11)
url=http://127.0.0.1:$port/metrics
name=memtop-ctr-$$
memcg "$name" $((64 << 20))
"$MEMTOP" --serve "$port" --cgroups -d 0.5 2>"$WORK/err" &
MTPID=$!

# root_kills: the root's kernel OOM count in a scrape; listed: whether /NAME is
root_kills() { curl -sf "$url" | awk '$1 == "memtop_cgroup_oom_kills_kernel_total{path=\"/\"}" { print $2 }'; }
listed() { curl -sf "$url" | grep -q "^memtop_cgroup_oom_kills_kernel_total{path=\"/$name\"}"; }
eventually $HANG listed || fail "/$name never exported: $(cat "$WORK/err")"
before=$(root_kills)
[ -n "$before" ] || fail "no memtop_cgroup_oom_kills_kernel_total{path=\"/\"}"

# every scrape's root count, until the test stops it
touch "$WORK/scraping"
(while [ -f "$WORK/scraping" ]; do
	root_kills >>"$WORK/seen"
	sleep 0.2
done) &
SCRAPER=$!
KIDS="$KIDS $SCRAPER"

memcg_oom_kill
[ "${kernel:-0}" -ge 1 ] || fail "the kernel counted no OOM kill in the cgroup ($kernel)"
want=$((before + kernel))
has_kill() { [ "$(root_kills)" -ge "$want" ]; }
eventually $HANG has_kill || fail "the root's count $(root_kills) never reached $before + $kernel"
memcg_remove
gone() { ! listed; }
eventually $HANG gone || fail "/$name still exported after its removal"
# some scrapes after the removal
n=$(wc -l <"$WORK/seen")
more() { [ "$(wc -l <"$WORK/seen")" -ge $((n + 5)) ]; }
eventually $HANG more || fail "the scrapes stopped"
rm -f "$WORK/scraping"
wait $SCRAPER
after=$(root_kills)
[ "$after" -ge "$want" ] || fail "after the removal the root counts $after kills, below $before + $kernel"
awk 'NR > 1 && $1 < prev { print "fell from " prev " to " $1 " at scrape " NR; bad = 1 }
	{ prev = $1 } END { exit bad }' "$WORK/seen" || fail "the root's count fell: $(tr '\n' ' ' <"$WORK/seen")"
echo "root: $before before, $after after the kill ($kernel in /$name) and its removal;" \
	"$(wc -l <"$WORK/seen") scrapes, none lower than the one before"
