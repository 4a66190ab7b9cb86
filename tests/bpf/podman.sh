#!/bin/sh
# A Podman container named leaky, run as PLATFORM.md's machines run one (runc, --memory
# 200m, no swap, an image of a static busybox and grow_child that podman import made
# offline: no registry), grows 4 MiB/s from 120 MiB until the kernel's OOM killer kills
# it in its memory cgroup. memtop names the container, not its id: its row on the cgroup
# screen and in --json (name "leaky", runtime "podman", the cgroup of /proc/PID/cgroup),
# the verdict, and its kill: the banner's memcg, and the JSON event, whose victim is the
# kernel's and whose path is, whole, the one the kernel log's oom-kill line gives
# (task_memcg). The image is kept under build/tests/podman, keyed by its files' hash.
# Without podman, a skip.
# memtop-test: alone
# memtop-test: long
# memtop-test: timeout 180
. "$(dirname "$0")/lib.inc"
command -v podman >/dev/null && command -v runc >/dev/null ||
	skip "needs podman and runc (sh scripts/deps.sh test)"
need_bpf oom
BUSYBOX=$(command -v busybox) || skip "needs busybox (busybox-static)"
command -v readelf >/dev/null || skip "needs readelf (binutils)"
readelf -l "$BUSYBOX" | grep -q INTERP && skip "$BUSYBOX is not linked statically (busybox-static)"
GROW="$HELPERS/grow_child_static"
[ -x "$GROW" ] || fail "build first: $GROW"

CT=leaky
made=""
podman_cleanup() {
	[ -n "$made" ] && podman rm -f -t 0 "$CT" >/dev/null 2>&1
	cleanup
}
trap podman_cleanup EXIT
# a leaky left by a run of this test that was killed goes; someone else's stays
if podman container exists "$CT"; then
	[ "$(podman inspect -f '{{index .Config.Labels "memtop-test"}}' "$CT")" = podman ] ||
		skip "a container named $CT exists already, not this test's"
	podman rm -f -t 0 "$CT" >/dev/null || fail "cannot remove the $CT a run before left"
fi

# the image: its files' hashes name it and its tarball (build/tests/podman), which an
# earlier run may have made and imported already
key=$(cat "$BUSYBOX" "$GROW" | sha256sum | cut -c1-16)
image=localhost/memtop-test-leaky:$key
dir=$(dirname "$MEMTOP")/tests/podman
tarball=$dir/leaky-$key.tar
if ! podman image exists "$image"; then
	if [ ! -s "$tarball" ]; then
		rm -rf "$dir" # older images' tarballs
		mkdir -p "$dir/root/bin" || fail "mkdir $dir"
		cp "$BUSYBOX" "$dir/root/bin/busybox" && cp "$GROW" "$dir/root/bin/grow_child" &&
			ln -s busybox "$dir/root/bin/sh" || fail "copying the image's files"
		tar -C "$dir/root" --owner=0 --group=0 -cf "$tarball.new" . &&
			mv "$tarball.new" "$tarball" || fail "tar"
		rm -rf "$dir/root"
	fi
	for old in $(podman images -q --filter reference=localhost/memtop-test-leaky); do
		podman rmi -f "$old" >/dev/null 2>&1
	done
	podman import "$tarball" "$image" >"$WORK/import" 2>&1 ||
		fail "podman import failed: $(cat "$WORK/import")"
fi

tm_start 200 50 "$MEMTOP" -d 1
wait_for "Tasks" || fail "memtop did not start"
tm send-keys C
wait_for "Hierarchy v" || fail "C did not open the cgroup screen"

# the kernel log's lines from here on (its time stamps, after the last one now)
t0=$(dmesg | tail -n 1 | awk -F'[][]' '{ sub(/^ +/, "", $2); print $2 }')
made=1
# from the test's own directory: conmon, which stays in the container's, writes a file
# "oom" there at the kill
cd "$WORK" || fail "cd $WORK"
podman run -d --name "$CT" --label memtop-test=podman --runtime runc \
	--ulimit nofile=1024:1024 --ulimit nproc=1024:1024 --network none \
	--memory 200m --memory-swap 200m \
	"$image" /bin/grow_child -s 120 4 0 "$CT" >"$WORK/id" || fail "podman run failed"
id=$(cat "$WORK/id")
pid=$(podman inspect -f '{{.State.Pid}}' "$CT")
[ "${pid:-0}" -gt 0 ] || fail "podman names no pid for $CT: '$pid'"
# its memory cgroup: v1's memory line, else v2's
cg=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { v1 = $3 } $1 == 0 && $2 == "" { v2 = $3 }
	END { print v1 != "" ? v1 : v2 }' "/proc/$pid/cgroup")
case "$cg" in
*"$id"*) ;;
*) fail "the cgroup of $CT's process $pid is '$cg', not its container's ($id)" ;;
esac
echo "$CT: $pid ($(cat "/proc/$pid/comm")) in $cg"
# --json of the container's processes alone (all cgroups)
mt_start --cgroups --cgroup "$cg" -d 1

# the cgroup screen: the container's row (its path's end, the id's) has its NAME
head12=${id%"${id#????????????}"} tail12=${id#"${id%????????????}"}
named_row() { screen_text | grep -F "$tail12" | grep -qE "$tail12 +$CT +[0-9.]+[KMG] "; }
eventually $HANG named_row ||
	fail "the cgroup screen does not name $CT: $(screen_text | grep -E "^CGROUP|$tail12")"
echo "screen: $(screen_text | grep -F "$tail12" | tr -s ' ' | cut -c1-120)"

# until the kernel kills it: the process goes, and the kernel log says so
gone() { [ ! -d "/proc/$pid" ]; }
eventually 100 gone ||
	fail "$CT's process $pid lives on at 100 s: $(grep VmRSS "/proc/$pid/status")"
klog() {
	dmesg | awk -F'[][]' -v t0="${t0:-0}" '$2 + 0 > t0' |
		grep -E "Killed process $pid \(grow_child\)|oom-kill:.*,pid=$pid," >"$WORK/klog"
	grep -q "Killed process $pid (grow_child)" "$WORK/klog"
}
eventually 10 klog ||
	fail "the kernel log has no OOM kill of $pid (exit $(podman inspect -f '{{.State.ExitCode}}' "$CT"))"
kmemcg=$(sed -n 's/.*oom-kill:.*task_memcg=\([^,]*\),.*/\1/p' "$WORK/klog" | tail -n 1)
if [ -z "$kmemcg" ]; then # the kernel rate-limits the report's summary, not the kill's line
	echo "the kernel's oom-kill line of $pid was rate-limited: its cgroup from /proc"
	kmemcg=$cg
fi
[ "$kmemcg" = "$cg" ] || fail "the kernel killed $pid in '$kmemcg', not $cg: $(cat "$WORK/klog")"
echo "kernel: $(grep -o 'Killed process.*anon-rss:[0-9]*kB' "$WORK/klog" | tail -n 1)"

# the banner names the container
wait_for "OOM kill: pid $pid (grow_child)" || fail "no banner for pid $pid"
banner=$(banner_text)
printf '%s\n' "$banner" | grep -qF "memcg $CT " || fail "the banner does not name $CT: $banner"
echo "screen: $(printf '%s\n' "$banner" | sed 's/  *\[.*//')"

mt_wait_lines $(($(mt_lines) + 2))
mt_stop
# --json: the row of the container's cgroup, while it lived
row=$(jq -c --arg p "$cg" '.cgroups[] | select(.path == $p and .removed == false)' "$OUT" | tail -n 1)
printf '%s\n' "$row" | jq -e --arg n "$CT" '.name == $n and .runtime == "podman" and
	.limit_kb == 204800' >/dev/null || fail "the cgroup row of $CT: $row"
# the verdict named it while it grew
v=$(jq -r '.verdict.text' "$OUT" | grep -F "$CT " | tail -n 1)
[ -n "$v" ] || fail "no verdict named $CT: $(jq -r '.verdict.text' "$OUT" | sort | uniq -c)"
case "$v" in *"$head12"* | *"$tail12"*) fail "the verdict names $CT by its id: $v" ;; esac
echo "verdict: $v"
# the kill's event: the kernel's victim, in the kernel's cgroup (its path whole), named
ev=$(jq -c --argjson p "$pid" '.events[] | select(.pid == $p and .earlier != true)' "$OUT")
[ "$(printf '%s\n' "$ev" | grep -c .)" = 1 ] || fail "not one kill event of $pid: $ev"
printf '%s\n' "$ev" | jq -e --arg cg "$kmemcg" '.comm == "grow_child" and .memcg == $cg' \
	>/dev/null ||
	fail "the kill event of $pid is not in $kmemcg: $(printf '%s\n' "$ev" | jq -c 'del(.before)')"
printf '%s\n' "$ev" | jq -e --arg cg "$kmemcg" --arg n "$CT" '.before.cgroup.path == $cg and
	.before.cgroup.name == $n' >/dev/null ||
	fail "the kill event of $pid does not name $CT:" \
		"$(printf '%s\n' "$ev" | jq -c '.before.cgroup | del(.usage_curve, .processes)')"
# the cgroup's row after the kill: its kill counted, by its name
last=$(tail -n 1 "$OUT" | jq -c --arg p "$cg" '.cgroups[] | select(.path == $p)')
printf '%s\n' "$last" | jq -e --arg n "$CT" '.name == $n and .oom_kills == 1' >/dev/null ||
	fail "after the kill, the row of $cg: $last"
echo "json: kill of $pid in $(printf '%s\n' "$ev" | jq -r .memcg), named $CT;" \
	"its row after it: $(printf '%s\n' "$last" | jq -c '{name, runtime, removed, oom_kills}')"
