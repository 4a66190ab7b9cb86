#!/bin/sh
# memtop-test: sanitized
# Names for memory cgroups from the engines' own files, on real cgroup directories: a
# Kubernetes tree as the kubelet's systemd driver makes it (a pod's slice, its container's
# scope and its sandbox's) with /var/log/pods/NAMESPACE_POD_UID/CONTAINER and the
# kubelet's link to it under /var/log/containers; a Docker container's cgroup (cgroupfs's
# /docker/ID) with config.v2.json naming it with control characters; a systemd unit.
# The files lie under a test root (MEMTOP_NAMES_ROOT). JSON cgroups[] names them
# namespace/pod, namespace/pod/container, the sandbox by its short id, the unit by its
# name, with their runtimes; the batch table's NAME column shows them escaped, and a
# cgroup nothing names by its path cut in the middle; a recording replays the names without the files.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "${TESTS:-$(dirname "$0")/..}/cli/memcg.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'cg_cleanup; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
need_memcg

uid=8d3f1c2a-4b5e-4f60-9a1b-2c3d4e5f6a7b
uid_=$(echo "$uid" | tr - _)
id=3f4e8a1c9b2d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f
sandbox=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
did=fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210

top=memtop-names$$
cg_make "$top"
cg_make "$top/kubepods.slice"
cg_make "$top/kubepods.slice/kubepods-burstable.slice"
pod=$top/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod$uid_.slice
cg_make "$pod"
cg_make "$pod/cri-containerd-$id.scope"
cg_make "$pod/cri-containerd-$sandbox.scope"
cg_make "$top/docker"
cg_make "$top/docker/$did"
cg_make "$top/demo.service"
cg_make "$top/plain"

root=$tmp/root
mkdir -p "$root/var/log/pods/shop_web-0_$uid/app" "$root/var/log/containers" \
	"$root/var/lib/docker/containers/$did"
: >"$root/var/log/pods/shop_web-0_$uid/app/0.log"
ln -s "/var/log/pods/shop_web-0_$uid/app/0.log" "$root/var/log/containers/web-0_shop_app-$id.log"
printf '{"MountPoints":{"/d":{"Name":"vol"}},"Name":"/evil\\u001b[31m\\u202ename"}' \
	>"$root/var/lib/docker/containers/$did/config.v2.json"

MEMTOP_NAMES_ROOT=$root "$MEMTOP" --cgroups --json -n 1 -d 0.2 >"$tmp/json" ||
	fail "memtop --cgroups --json exited $?"
# named PATH NAME RUNTIME: JSON's cgroup at PATH has that name and runtime (null: none)
named() {
	row=$(jq -c --arg p "$1" '.cgroups[] | select(.path == $p) | [.name, .runtime]' "$tmp/json")
	[ "$row" = "$(jq -nc --argjson n "$2" --argjson r "$3" '[$n, $r]')" ] ||
		fail "$1: name and runtime $row, not [$2,$3]"
	echo "$1: $row"
}
named "/$pod" '"shop/web-0"' '"kubernetes"'
named "/$pod/cri-containerd-$id.scope" '"shop/web-0/app"' '"kubernetes"'
named "/$pod/cri-containerd-$sandbox.scope" '"shop/web-0/0123456789ab"' '"kubernetes"'
named "/$top/docker/$did" '"evil\u001b[31m\u202ename"' '"docker"'
named "/$top/demo.service" '"demo.service"' '"systemd"'
named "/$top/plain" null null

# batch: the NAME column, escaped; where nothing names it, the path
"$MEMTOP" --cgroups -b -n 1 -d 0.2 -p $$ >"$tmp/plain.batch" || fail "memtop -b exited $?"
MEMTOP_NAMES_ROOT=$root "$MEMTOP" --cgroups -b -n 1 -d 0.2 -p $$ >"$tmp/batch" ||
	fail "memtop -b exited $?"
grep -q "$(printf '\033')" "$tmp/batch" && fail "batch text holds an escape character"
line() { grep -F -- "$1" "$tmp/batch" | head -1; }
line "/cri-containerd-$id.scope" | grep -q ' shop/web-0/app ' ||
	fail "no NAME shop/web-0/app: $(line "/cri-containerd-$id.scope")"
line "/docker/$did" | grep -qF ' evil\e[31m\u202ename ' ||
	fail "the docker name not escaped: $(line "/docker/$did")"
# the path /memtop-namesPID/plain, longer than the column's 20: its start, "...", its end
cell=$(line "/$top/plain " | awk '{ print $2 }')
case "$cell" in
/memt*...*/plain) [ ${#cell} -le 20 ] && [ ${#cell} -ge 19 ] ;;
*) false ;;
esac || fail "the unnamed cgroup's NAME is not its path cut in the middle: $cell"
echo "NAME of /$top/plain: $cell"

# a recording keeps the names: replayed without the files, the same
MEMTOP_NAMES_ROOT=$root "$MEMTOP" --record "$tmp/rec" --json --cgroups -n 3 -d 0.2 >/dev/null ||
	fail "memtop --record exited $?"
"$MEMTOP" --replay "$tmp/rec" --json --cgroups >"$tmp/replay" 2>"$tmp/err" ||
	fail "--replay exited $?: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/replay")" -ge 3 ] || fail "the replay printed $(wc -l <"$tmp/replay") samples"
sel='.cgroups[] | select(.path | startswith($p)) | [.path, .name, .runtime]'
want=$(jq -c --arg p "/$top" "$sel" "$tmp/json" | sort)
tail -n 1 "$tmp/replay" | jq -c --arg p "/$top" "$sel" | sort >"$tmp/got"
[ "$(cat "$tmp/got")" = "$want" ] || fail "replayed names: $(cat "$tmp/got"), live: $want"
echo "replayed: $(wc -l <"$tmp/got") cgroups named as live"
