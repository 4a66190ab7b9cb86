#!/bin/sh
# memtop-test: anywhere
# The post-mortem of an OOM kill in a limited cgroup, against the scenario's truth:
# /leak (memory.max 200M) grows 4 MiB/s from 171 python3 until the OOM killer kills it at
# 49.75 s, a refresh every 2 s (scenario_rec killend). The kill's before.cgroup names
# /leak with its limit, its usage at the last refresh before the kill, a usage curve with
# every refresh before it (its time from the kill, its usage, as the truth has them), 171
# python3 among its processes with its RSS then and its growth within 5 % of 4 MiB/s (seen
# 48 s: more than the 30 s a growth needs), the kernel's OOM kill count before (0) and
# after (1), and the verdict as the replay printed it at that last refresh, naming /leak.
# (tests/bpf/oom_cgroup_before.sh: the same from a real kill, what only the kernel has.)
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/scenario.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

scenario killend
judge killend "the kill's before.cgroup" '
	(map(.t.kills[] | select(.pid == 171)) | .[0].ts) as $kill |
	(map(.r.events[]? | select(.type == "oom_kill" and .pid == 171)) | .[0]) as $ev |
	map(select(.t.ts < $kill)) as $before | ($before[-1]) as $last |
	($last.t.cgroups[] | select(.path == "/leak")) as $c |
	(map(select(.t.ts > $kill)) | .[0].t.cgroups[] | select(.path == "/leak")) as $after |
	($last.t.processes[] | select(.pid == 171)) as $p |
	if $kill == null then "the truth has no kill of 171"
	elif $ev == null then "no oom_kill event of 171 in the replay"
	elif $ev.before.cgroup == null then "the kill has no before.cgroup: \($ev | tojson)"
	else $ev.before.cgroup as $g |
	[(select($g.path != "/leak" or $g.limit_kb != $c.limit_kb) |
		"path \($g.path), limit \($g.limit_kb) KiB; truth /leak \($c.limit_kb)"),
	 (select($g.usage_kb != $c.usage_kb) |
		"usage \($g.usage_kb) KiB; truth at \($last.t.t) s \($c.usage_kb)"),
	 (select(($g.usage_curve | length) != ($before | length)) |
		"\($g.usage_curve | length) samples in the curve for \($before | length) refreshes"),
	 ([range(0; [$g.usage_curve, $before] | map(length) | min) as $i |
		$g.usage_curve[$i] as $s | $before[$i] as $b |
		($b.t.cgroups[] | select(.path == "/leak") | .usage_kb) as $u |
		select((($s[0] - ($b.t.ts - $kill)) | absv) > 0.01 or $s[1] != $u) |
		"curve sample \($i) \($s | tojson); truth [\($b.t.ts - $kill), \($u)]"] | .[:3] | .[]),
	 (select($g.process_count != $c.nprocs) |
		"process_count \($g.process_count); truth \($c.nprocs)"),
	 ($g.processes | map(select(.pid == 171)) | .[0] as $q |
		select($q == null or $q.comm != "python3" or $q.rss_kb != $p.rss_kb or
		       $q.growth_kb_per_min == null or
		       (($q.growth_kb_per_min - $p.rate_kb_s * 60) | absv) > 0.05 * $p.rate_kb_s * 60) |
		"171: \($q | tojson); truth rss \($p.rss_kb) KiB, \($p.rate_kb_s * 60) KiB/min"),
	 (select($g.oom_kills_kernel.before != $c.oom_kills or
		 $g.oom_kills_kernel.after != $after.oom_kills) |
		"OOM kills \($g.oom_kills_kernel | tojson); truth \($c.oom_kills), \($after.oom_kills)"),
	 (select($g.verdict != $last.r.verdict.text or ($g.verdict | contains("/leak") | not)) |
		"verdict \($g.verdict | tojson); at \($last.t.t) s the replay said \($last.r.verdict.text | tojson)")] |
	.[] end'
echo "killend: the kill's before.cgroup holds /leak's limit, usage, curve, grower, counts, verdict"
