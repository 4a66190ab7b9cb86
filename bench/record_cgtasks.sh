#!/bin/sh
# What recording the limited memory cgroups' processes costs: in a PID namespace of its
# own with N idle processes, two memtops (BASE, a build to compare with, and B) record the
# same SAMPLES samples side by side, -d 1 --no-bpf, in ROUNDS rounds of two modes: plain
# (no --cgroups, as bench/record.sh) and cg (--cgroups, the idle processes in a memory
# cgroup limited to 4 GiB, each of them then listed in every sample's cgroups.tasks).
# Prints each round's bytes a sample (the file less its header, over the samples) and the
# medians. Knobs: BASE (required), B (build/memtop), N (500), SAMPLES (61), ROUNDS (3).
# Needs root, unshare and a cgroup v1 memory hierarchy or a v2 root delegating memory.
set -eu
cd "$(dirname "$0")/.."
: "${BASE:?BASE=path/to/another/memtop}"
B=${B:-build/memtop}
N=${N:-500}
SAMPLES=${SAMPLES:-61}
ROUNDS=${ROUNDS:-3}
HELPER=build/bench/idle_procs
[ -x "$HELPER" ] || make --no-print-directory "$HELPER" >/dev/null
if [ -d /sys/fs/cgroup/memory ]; then
	CG=/sys/fs/cgroup/memory/memtop-bench-cgtasks LIMIT=memory.limit_in_bytes
else
	CG=/sys/fs/cgroup/memtop-bench-cgtasks LIMIT=memory.max
fi
tmp=$(mktemp -d /tmp/memtop-cgtasks.XXXXXX)
trap 'rmdir "$CG" 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir -p "$CG"
echo $((4 << 30)) >"$CG/$LIMIT"

# per_sample FILE: its bytes a sample, the header left out
per_sample() {
	hdr=$(head -c 20 "$1" | od -An -tu4 -j12 -N4 | tr -d ' ')
	echo $((($(stat -c %s "$1") - 20 - hdr) / SAMPLES))
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

r=0
while [ $r -lt "$ROUNDS" ]; do
	for mode in plain cg; do
		rm -f "$tmp/base" "$tmp/new"
		unshare --pid --fork --mount-proc sh -c '
			[ "$6" = cg ] && echo $$ >"$7/cgroup.procs"
			"$1" spawn "$2" >"$3/idle" &
			until grep -q ready "$3/idle" 2>/dev/null; do sleep 0.1; done
			a=""
			[ "$6" = cg ] && a=--cgroups
			"$4" --record "$3/base" -n "$8" -d 1 --no-bpf $a -b >/dev/null &
			"$5" --record "$3/new" -n "$8" -d 1 --no-bpf $a -b >/dev/null
			wait $!' sh "$PWD/$HELPER" "$N" "$tmp" "$BASE" "$PWD/$B" "$mode" "$CG" "$SAMPLES"
		echo "$mode $(per_sample "$tmp/base") $(per_sample "$tmp/new")" | tee -a "$tmp/all"
	done
	r=$((r + 1))
done
for mode in plain cg; do
	base=$(awk -v m=$mode '$1 == m { print $2 }' "$tmp/all" | median)
	new=$(awk -v m=$mode '$1 == m { print $3 }' "$tmp/all" | median)
	echo "$mode, $N idle processes, $SAMPLES samples: BASE $base bytes a sample, B $new (medians of $ROUNDS)"
done
