#!/bin/sh
# memtop-test: beside others
# memtop-test: long
# The detail screen's Leaks tab (6) on leak_child, which leaks 1 MiB/s from leak_site
# (malloc, never freed) by its own clock and allocates and frees as much from free_site:
# s traces a window of 10 s; when it ends, the tab shows leak_site's stack (leak_site, then
# main) at 1 MiB/s within 10 % (a window whose rate misses, the child kept from its clock
# by other work, is traced again: 3 at most, as tests/bpf/leaks.sh), after 10.0 s, and no
# free_site; the tracer's links are gone once the window ended. The Stacks tab names the
# Leaks tab in one line. On leak_child_static (no libc for the uprobes) the tab says why
# only mmap and munmap are traced, and shows mmap_site; run as nobody, it says that it
# needs root.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
. "$TESTS/dd_grow.inc"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
kid=""
trap 'tm_kill; kill $kid 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
[ "$(id -u)" = 0 ] || skip "the leak tracer needs root"

RATE=1048576 MAP_RATE=262144

# start_leaker PROGRAM [MAP_RATE]: $kid its pid
start_leaker() {
	: >"$tmp/child"
	"$1" $RATE "${2:-0}" 300 >"$tmp/child" &
	kid=$!
	wait_ready "$tmp/child" || fail "$1 never got ready"
}

# leak_tab [AS...]: memtop in tmux on $kid (run by AS... when given), its Leaks tab shown
leak_tab() {
	tm_kill
	tm_start 120 50 "echo \$\$ >'$tmp/mt'; exec $* '$MEMTOP' -d 1 -p $kid"
	wait_for "leak_child" || fail "memtop did not show leak_child"
	MT=$(cat "$tmp/mt")
	if [ $# = 0 ]; then # the drill's sampler attached, its links counted
		wait_bpf_on || fail "memtop's BPF programs never loaded"
		BASE=$(bpf_links "$MT")
	fi
	tm send-keys Enter
	wait_for "Process $kid (" || fail "Enter did not open the detail screen"
	[ $# != 0 ] || wait_links "$MT" $((BASE + STACKS_LINKS)) ||
		fail "opening the detail screen did not attach the sampler"
	tm send-keys 6
	wait_for "s start/stop tracing" || fail "6 did not show the Leaks tab"
}

# the B/s of the stack whose first frame is leak_site: "#N malloc: B bytes (R/s, ..." then
# "      leak_site+0x..."
site_rate() {
	screen_text | awk -v s="$1" '
		/^#[0-9]+ / { head = $0; next }
		head != "" && $1 ~ "^" s "\\+0x" { sub(/.*\(/, "", head); sub(/\/s.*/, "", head); print head; exit }
		{ head = "" }'
}
within() { awk -v v="$1" -v w="$2" 'BEGIN { exit !(v != "" && v >= w * 0.9 && v <= w * 1.1) }'; }

# window: s, then the window's end
window() {
	tm send-keys s
	wait_for "Tracing: " || fail "s did not start the tracer"
	wait_for "A window of 10.0 s, ended" || fail "the window did not end"
}

start_leaker "$HELPERS/leak_child"
leak_tab
wait_for "s traces allocations for 10 s" || fail "the tab does not say what s does"
tries 3 eval 'window; within "$(site_rate leak_site)" $RATE' ||
	fail "leak_site at $(site_rate leak_site) B/s, not $RATE +-10 % (tried $tries times):
$(screen_text)"
screen_text >"$tmp/tab"
grep -q "^Outstanding allocations of process $kid (leak_child) after 10.0 s: " "$tmp/tab" ||
	fail "no --leaks title of a 10 s window: $(cat "$tmp/tab")"
grep -A1 '^      leak_site+0x' "$tmp/tab" | grep -q '^      main+0x' || fail "leak_site's caller is not main: $(cat "$tmp/tab")"
grep -q 'free_site' "$tmp/tab" && fail "free_site, which frees, is shown: $(cat "$tmp/tab")"
# the window over, the tracer is detached: only the sampler's links stay
wait_links "$MT" $((BASE + STACKS_LINKS)) ||
	fail "the tracer's links stay after the window: $(bpf_links "$MT"), not $((BASE + STACKS_LINKS))"
echo "leak_site $(site_rate leak_site) B/s in a window of 10 s (tried $tries times)"
tm send-keys 3
wait_for "what is never freed: the Leaks tab (6)" || fail "the Stacks tab does not name the Leaks tab"
kill $kid
wait $kid 2>/dev/null

# a static program: no libc for the uprobes, said in one line
start_leaker "$HELPERS/leak_child_static" $MAP_RATE
leak_tab
tm send-keys s
wait_for "no libc mapped (a static program): only mmap and munmap are traced" ||
	fail "the static program's tab does not say why only mmap is traced"
wait_for "      mmap_site+0x" || fail "the static program's tab shows no mmap_site"
echo "static: $(screen_text | grep 'only mmap')"

# not root: said, not tried
if command -v setpriv >/dev/null; then
	leak_tab setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all
	wait_for "Leak tracing unavailable: tracing allocations needs root" ||
		fail "as nobody, the tab does not say it needs root"
fi
exit 0
