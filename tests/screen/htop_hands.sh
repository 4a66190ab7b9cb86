#!/bin/sh
# memtop-test: beside others
# htop's hands: Esc on the process table after "\foo" Enter (the filter kept) shows every
# process again; h opens the help of the screen it is pressed on: on the cgroup screen,
# at the cgroup screen's keys.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

tm_start 120 30 "$MEMTOP -d 0.5"
wait_for "Tasks" || fail "memtop did not start"
shown() { screen_text | grep -Eo '^Tasks [0-9]+, [0-9]+ shown' | awk '{ print $3 }'; }
tm send-keys '\'
wait_for "Filter:" || fail "\\ opened no filter prompt"
tm send-keys -l "nosuchprocess$$"
tm send-keys Enter
wait_for ", 0 shown" || fail "the filter kept did not hide every process"
wait_for "filter: nosuchprocess$$" >/dev/null || fail "the bottom line does not name the filter"
tm send-keys Escape
all() { [ "$(shown)" -gt 0 ]; }
eventually $HANG all || fail "Esc did not clear the filter: $(screen_text | grep '^Tasks')"
echo "Esc: $(screen_text | grep -o '^Tasks [0-9]*, [0-9]* shown')"

# h on the cgroup screen: its keys' section on the help's first lines
tm send-keys C
wait_for "CGROUP " >/dev/null || fail "C did not open the cgroup screen"
tm send-keys h
wait_for " - keys" >/dev/null || fail "h did not open the help"
screen_text | sed -n 1,4p | grep -q "^ *Cgroups (C)" ||
	fail "h on the cgroup screen did not open at its section: $(screen_text | head -n 4)"
tm send-keys q
wait_for "CGROUP " >/dev/null || fail "the help did not return to the cgroup screen"
echo "h on the cgroup screen: $(screen_text | head -n 3 | tr '\n' '|')"
