#!/bin/sh
# memtop-test: anywhere
# memtop-test: sanitized
# The scripted recordings of scenario_rec (tests/helpers/scenario_rec.c) replay as written:
# for every scenario, a line per refresh, and on each line the time, MemTotal,
# MemAvailable and SwapFree, each cgroup's usage, limit, processes and OOM kills, each
# process's RSS (the same processes, no other) and the OOM kills logged are those the
# scenario wrote (its truth). The verdict_* and forecast_* tests judge memtop's verdict and
# forecasts on these recordings against the same truth.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

names=$("$HELPERS/scenario_rec" list) || fail "scenario_rec list exited $?"
[ "$(echo "$names" | wc -l)" -ge 6 ] || fail "scenario_rec lists only: $names"
for name in $names; do
	scenario "$name"
	judge "$name" "figures replayed" '.[] | . as $line |
		[(select(.r.ts != .t.ts) | "ts \(.r.ts) for \(.t.ts)"),
		 (select(.r.system.mem_total_kb != .t.mem_total_kb) | "MemTotal \(.r.system.mem_total_kb)"),
		 (select(.r.system.mem_available_kb != .t.mem_available_kb) |
			"MemAvailable \(.r.system.mem_available_kb) for \(.t.mem_available_kb)"),
		 (select(.r.system.swap_free_kb != .t.swap_free_kb) |
			"SwapFree \(.r.system.swap_free_kb) for \(.t.swap_free_kb)"),
		 (. as $l | .t.cgroups[] | . as $c | $l.cg[$c.path] as $g |
			select($g == null or $g.usage_kb != $c.usage_kb or $g.limit_kb != $c.limit_kb or
			       $g.nprocs != $c.nprocs or $g.oom_kills_kernel != $c.oom_kills) |
			"cgroup \($c.path) \($g | tojson) for \($c | tojson)"),
		 (select((.r.processes | map(.pid) | sort) != (.t.processes | map(.pid) | sort)) |
			"pids \(.r.processes | map(.pid) | sort) for \(.t.processes | map(.pid) | sort)"),
		 (. as $l | .t.processes[] | . as $p |
			($l.r.processes | map(select(.pid == $p.pid))[0]) as $q |
			select($q != null and ($q.rss_kb != $p.rss_kb or $q.comm != $p.comm)) |
			"pid \($p.pid) rss \($q.rss_kb) for \($p.rss_kb)"),
		 (select((.r.events | map(select(.type == "oom_kill") | [.pid, .memcg])) !=
			 (.t.kills | map([.pid, .memcg]))) |
			"kills \(.r.events | map(.pid)) for \(.t.kills | map(.pid))")] |
		.[] | "line \($line.i): \(.);"' ||
		exit 1
	echo "$name: $(wc -l <"$tmp/$name.truth") refreshes replayed as written"
done
