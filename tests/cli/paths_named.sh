#!/bin/sh
# Every path of the repository that the sources (C, shell, the Makefile: src/ bpf/ ui/ man/
# tests/ scripts/ bench/ .ci/) and the documentation (CONTRIBUTING.md, README.md, doc/*.md)
# name exists. A path is a word that starts with one of the tree's top folders and names a
# file with an extension or a folder (src/proc/pids.c, tests/cli/, doc/keys.md#mouse);
# a glob (tests/cli/*.sh, tests/{cli,screen}/) must match something, and a placeholder in
# capitals (src/run/NAME.c, memtop-YYYYMMDD.rec) stands for any name. A test's name
# (bpf/oom_memcg.sh, as tests/run.sh takes it) is a path under tests/. Not checked: paths under
# build/ and the BPF skeletons the build makes there (bpf/NAME.skel.h), and a header of the
# system (#include <bpf/libbpf.h>).
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || fail "cannot enter $root"
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP

tops='src|ui|bpf|tests|doc|bench|themes|scripts|contrib|man|debian'
{
	find src bpf ui man tests scripts bench .ci -type f \
		\( -name '*.[ch]' -o -name '*.sh' -o -name '*.inc' -o -name '*.def' -o -name '*.in' \
		-o -name 'run' \) 2>/dev/null
	echo Makefile
	echo CONTRIBUTING.md
	echo README.md
	ls doc/*.md
} | sort -u >"$tmp/files"
[ "$(wc -l <"$tmp/files")" -gt 100 ] || fail "found only $(wc -l <"$tmp/files") files to read"

# FILE:PATH for every path-like word; the character before it is no part of a word or a
# path (not src/x inside /usr/src/x, $tmp/src/x or a URL), nor <
xargs grep -oHE "(^|[^A-Za-z0-9_./\$~<-])($tops)/[A-Za-z0-9_./*{},+-]*" <"$tmp/files" |
	sed -E 's|^([^:]*):[^a-z]?|\1:|; s|[.,:;)]+$||' | sort -u >"$tmp/named"

missing=0
checked=0
while IFS=: read -r f p; do
	p=${p%%#*}
	case "$p" in
	*/) ;;                    # a folder
	*/*.*) ;;                 # a file with an extension
	*) continue ;;            # a word that only starts like a path (ui/screen, src/...)
	esac
	case "$p" in
	bpf/*.skel.h) continue ;; # made by the build, in build/bpf/
	esac
	# placeholders in capitals stand for any name; braces list alternatives
	pats=$p
	case "$p" in
	*[A-Z]*) pats=$(printf '%s\n' "$p" | sed -E 's/[A-Z][A-Z0-9_]*[A-Z0-9]/*/g') ;;
	esac
	case "$pats" in
	*{*}*) pats=$(bash -c "printf '%s\n' $pats" 2>/dev/null) ;;
	esac
	for q in $pats; do
		checked=$((checked + 1))
		# shellcheck disable=SC2086 # the glob is the point
		set -- ${q%/}
		[ -e "$1" ] && continue
		set -- tests/${q%/}
		[ -e "$1" ] && continue
		echo "$f names $p, which does not exist"
		missing=$((missing + 1))
	done
done <"$tmp/named" >"$tmp/missing"
[ "$checked" -gt 300 ] || fail "only $checked paths checked: the search found too few"
[ "$missing" -eq 0 ] || fail "$missing paths named are not in the tree:
$(cat "$tmp/missing")"
echo "$checked paths named in $(wc -l <"$tmp/files") files, each in the tree"
