#!/bin/sh
# memtop-test: sanitized
# What a person gives memtop (flags, the settings file and its path, a theme file, TERM)
# is escaped where an error message or warning quotes it, as process data is: an OSC 52
# sequence (which would set the terminal's clipboard) reaches stderr as \e]52;...\x07,
# never as raw ESC or BEL bytes. The settings file, themes and TERM are read only for the
# full-screen view, so those runs are in a terminal (tmux) with stderr to a file.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'tm_kill; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

evil=$(printf '\033]52;c;SGVsbG8=\007')
shown='\e]52;c;SGVsbG8=\x07'
esc=$(printf '\033')
bel=$(printf '\007')

# check NAME WANT...: the stderr saved in $tmp/NAME has no raw ESC or BEL and shows each WANT
check() {
	name=$1
	shift
	printf '%s: %s\n' "$name" "$(cat "$tmp/$name")"
	if grep -q "[$esc$bel]" "$tmp/$name"; then
		fail "$name: stderr holds raw ESC or BEL bytes: $(cat -v "$tmp/$name")"
	fi
	for want; do
		grep -qF -- "$want" "$tmp/$name" ||
			fail "$name: stderr does not show '$want': $(cat -v "$tmp/$name")"
	done
}

# flag NAME WANT ARGS...: memtop -b ARGS is refused (exit 2) with WANT on stderr
flag() {
	name=$1 want=$2
	shift 2
	"$MEMTOP" -b -n 1 "$@" >/dev/null 2>"$tmp/$name" </dev/null
	rc=$?
	[ "$rc" = 2 ] || fail "$name: exit $rc, not 2"
	check "$name" "$want"
}
flag sort "-o: no column '$shown'" -o "$evil"
flag user "-u: no such user '$shown'" -u "$evil"
flag iterations "-n needs a positive number of refreshes, not '$shown'" -n "$evil"
flag columns "--columns: unknown column '$shown'" --columns "$evil"
flag delay "not '$shown'" -d "$evil"
flag pids "not '$shown'" -p "$evil"
flag stacks "not '$shown'" --stacks "$evil"
flag argument "unexpected argument '$shown'" "$evil"
# an unknown option: the name as given, without what follows '=' (the BEL is there)
flag long_option "unknown option '--x\e]52;c;SGVsbG8'" "--x$evil"
flag short_option "unknown option '-\e'" "-b$esc"

# the full-screen view: a settings file, its directory's name, a theme file, a theme's
# name and TERM, each holding the sequence
mkdir -p "$tmp/config/memtop" "$tmp/dir$evil/memtop"
printf 'sort=%s\n' "$evil" >"$tmp/config/memtop/memtoprc"
printf 'tree=2\n' >"$tmp/dir$evil/memtop/memtoprc"
printf 'header %s default\nrole%s red default\nlabel red default %s\n' "$evil" "$evil" "$evil" \
	>"$tmp/theme$evil.theme"
cat >"$tmp/run.sh" <<EOF
cd '$tmp'
evil=\$(printf '\\033]52;c;SGVsbG8=\\007')
XDG_CONFIG_HOME='$tmp/config' timeout --foreground 10 '$MEMTOP' 2>settings
XDG_CONFIG_HOME="\$PWD/dir\$evil" timeout --foreground 10 '$MEMTOP' 2>settings_dir
XDG_CONFIG_HOME=/nonexistent timeout --foreground 10 '$MEMTOP' -n 1 -d 0.1 --theme "\$PWD/theme\$evil.theme" 2>theme
XDG_CONFIG_HOME=/nonexistent timeout --foreground 10 '$MEMTOP' --theme "\$evil" 2>theme_name
TERM="x\$evil" XDG_CONFIG_HOME=/nonexistent timeout --foreground 10 '$MEMTOP' 2>term
echo done >done
EOF
tm_start 100 30 "sh '$tmp/run.sh'"
wait_file "$tmp/done" 60 || fail "the runs in a terminal did not end: $(screen_text)"
check settings "memtoprc line 1: sort: no column '$shown'"
check settings_dir "/dir$shown/memtop/memtoprc line 1: tree: 1 or 0, not '2'"
check theme "theme $tmp/theme$shown.theme:1: unknown color '$shown'; header" \
	"theme $tmp/theme$shown.theme:2: unknown role 'role$shown'" \
	"theme $tmp/theme$shown.theme:3: unknown attribute '$shown'; label"
check theme_name "theme '$shown': no such theme; the themes are default, 256, light, mono"
check term "terminal type 'x$shown'"
exit 0
