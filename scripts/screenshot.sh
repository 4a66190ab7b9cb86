#!/bin/sh
# Takes screenshots/memtop.png (and .txt) from a real run of build/memtop in tmux.
# Needs aha and chromium (apt-get install aha chromium fonts-dejavu-core).
# Usage: sh scripts/screenshot.sh [KEYS...]   keys are sent before the capture
# W, H: the terminal's size (100x30); NAME: the file's (memtop); ARGS: memtop's flags;
# WAIT: seconds memtop runs before the keys (2.5). scripts/screenshots.sh takes them all.
set -eu
cd "$(dirname "$0")/.."
W=${W:-100} H=${H:-30} NAME=${NAME:-memtop} ARGS=${ARGS:-} WAIT=${WAIT:-2.5}
sock="memtop-shot-$$"
tmp=$(mktemp -d)
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT
tmux -L "$sock" -f /dev/null new-session -d -x "$W" -y "$H" \
	"LANG=C.UTF-8 TERM=xterm-256color XDG_CONFIG_HOME=/nonexistent build/memtop $ARGS"
sleep "$WAIT"
for k in "$@"; do
	tmux -L "$sock" send-keys "$k"
	sleep 0.5
done
sleep 1.2
tmux -L "$sock" capture-pane -p >"screenshots/$NAME.txt"
tmux -L "$sock" capture-pane -e -p | aha --black --no-header >"$tmp/body.html"
{
	echo '<html><head><meta charset="utf-8"><style>'
	echo 'body{margin:0;background:#000;color:#ddd}'
	echo 'pre{font-family:"DejaVu Sans Mono",monospace;font-size:14px;line-height:17px;margin:8px}'
	echo '</style></head><body><pre>'
	cat "$tmp/body.html"
	echo '</pre></body></html>'
} >"$tmp/shot.html"
chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$tmp/profile" --hide-scrollbars \
	--window-size=$((W * 9 + 16)),$((H * 17 + 16)) \
	--screenshot="$PWD/screenshots/$NAME.png" "file://$tmp/shot.html" >/dev/null 2>&1
echo "screenshots/$NAME.png"
