#!/bin/sh
# An OOM kill in a 64 MiB memory cgroup, counted in the victim's process group
# (--groups): the group of its comm holds as many kills as the kernel counted in the
# cgroup (v1 memory.oom_control, v2 memory.events oom_kill), the group of its cgroup
# (a later rule: the first rule that matches wins) none.
. "$(dirname "$0")/lib.inc"
need_bpf
command -v jq >/dev/null || skip "needs jq"

name=memtop-groupoom-$$
memcg "$name" $((64 << 20))
cat >"$WORK/groups.yaml" <<YAML
process_names:
  - name: hogs
    comm: [bpf_hog]
  - name: "in-cg"
    cgroup: ['^/$name\$']
YAML
mt_start --groups "$WORK/groups.yaml" -n 200 -d 0.5
mt_wait_lines 1
memcg_oom_kill
[ "${kernel:-0}" -ge 1 ] || fail "the kernel counted no OOM kill in the cgroup ($kernel)"
counted() {
	mt_last | jq -e --argjson k "$kernel" 'any(.groups[]; .groupname == "hogs" and .oom_kills == $k)' >/dev/null
}
eventually $HANG counted || fail "hogs never had $kernel kill(s): $(mt_last | jq -c '.groups')"
memcg_remove
mt_wait_lines $(($(mt_lines) + 2))
mt_stop
mt_last | jq -e --argjson k "$kernel" '[.groups[] | select(.groupname == "hogs")][0].oom_kills == $k and
	([.groups[] | select(.groupname == "in-cg")][0].oom_kills // 0) == 0' >/dev/null ||
	fail "the kill counted elsewhere: $(mt_last | jq -c '.groups')"
echo "$kernel kill(s) in /$name: $(mt_last | jq -c '[.groups[] | {groupname, count, oom_kills}]')"
