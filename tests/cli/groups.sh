#!/bin/sh
# memtop-test: beside others
# --groups FILE: helpers run under distinctive names (copies of alloc_child) and command
# lines; a groups file puts them in groups by comm (with the {{.Comm}} template), by a
# cmdline regular expression and by user (first rule wins). Each group's exported process
# count equals its members'; its resident bytes equal the sum of the members' statm
# (read again till statm is the same before and after the scrape, 3 tries; exact for idle
# helpers, within a round's scratch pages for one that faults);
# its minor and major faults lie between the sums of /proc/PID/stat read before and after
# the scrape; its PSS (--columns +pss) is within 2 % of smaps_rollup's sum, and absent
# without it. promtool accepts the exposition; no per-process series are in it. Under
# --serve, a member that exits leaves its faults in its group's counter, which does not
# fall. A rule by memory cgroup, and --json's groups[]. A bad file (a regular expression
# that does not compile, a key not known) is refused in one line naming FILE:LINE, exit 1.
. "${TESTS:-$(dirname "$0")/..}/lib.sh"
nobody_turn # it runs processes as nobody: the tests that count nobody's wait
for t in curl ss promtool setpriv jq; do
	command -v $t >/dev/null || skip "$t not installed (Debian packages curl, iproute2, prometheus, util-linux, jq)"
done
tmp=$(mktemp -d /tmp/memtop-test.XXXXXX)
kids= pid=
trap 'for p in $pid $kids; do kill "$p" 2>/dev/null; done; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP
chmod 755 "$tmp"

# start NAME USER ARGS...: a copy of alloc_child named NAME, run as USER; its pid in $last
n=0
start() {
	name=$1 user=$2
	shift 2
	[ -x "$tmp/$name" ] || cp "$HELPERS/alloc_child" "$tmp/$name"
	n=$((n + 1))
	: >"$tmp/out$n"
	if [ "$user" = root ]; then
		"$tmp/$name" "$@" >"$tmp/out$n" &
	else
		setpriv --reuid="$user" --regid=nogroup --clear-groups "$tmp/$name" "$@" >"$tmp/out$n" &
	fi
	last=$!
	kids="$kids $last"
	wait_ready "$tmp/out$n" || fail "$name $* never got ready"
}

start gqalpha root 6 && a1=$last
start gqalpha root 3 && a2=$last
start gqdelta root 2 1000 && d1=$last
start gqbuild root 4 0 gqmark-build-7 && b1=$last
start gqother root 2 2000 gqmark-build-8 && b2=$last
start gqgamma nobody 5 && g1=$last
start gqgamma root 3 && g2=$last

cat >"$tmp/groups.yaml" <<'YAML'
# comm, cmdline, user
process_names:
  - name: "c-{{.Comm}}"
    comm: [gqalpha, gqdelta]
  - name: build
    cmdline: ['gqmark-build-[0-9]+\b']
  - name: "gamma-{{.Username}}"
    comm:
      - gqgamma
    user: [nobody]
  - name: 'gamma-rest'
    exe: [gqgamma]
YAML

members() {
	case $1 in
	c-gqalpha) echo "$a1 $a2" ;;
	c-gqdelta) echo "$d1" ;;
	build) echo "$b1 $b2" ;;
	gamma-nobody) echo "$g1" ;;
	gamma-rest) echo "$g2" ;;
	esac
}
# slack_pages GROUP: the pages its faulting members touch and drop in one round
slack_pages() {
	case $1 in
	c-gqdelta) echo 10 ;;
	build) echo 20 ;;
	*) echo 0 ;;
	esac
}
all="c-gqalpha c-gqdelta build gamma-nobody gamma-rest"
page=$(getconf PAGESIZE)
# sum FIELD PIDS...: the sum of a stat field (after the comm: 8 minflt, 10 majflt) or of
# statm's resident pages (FIELD rss), over the pids
sum() {
	f=$1
	shift
	for p in "$@"; do
		if [ "$f" = rss ]; then cut -d' ' -f2 "/proc/$p/statm"; else sed 's/.*) //' "/proc/$p/stat" | awk -v f="$f" '{ print $f }'; fi
	done | awk '{ s += $1 } END { printf "%d\n", s }'
}
value() { awk -v k="$1{groupname=\"$2\"}" '$1 == k { print $2 }' "$3"; }

# one exposition, the sums read around it
for g in $all; do
	for try in 1 2 3; do
		pids=$(members $g)
		rss0=$(sum rss $pids) min0=$(sum 8 $pids) maj0=$(sum 10 $pids)
		"$MEMTOP" --openmetrics --groups "$tmp/groups.yaml" >"$tmp/m" 2>"$tmp/err" ||
			fail "memtop --openmetrics --groups exited $?: $(cat "$tmp/err")"
		rss1=$(sum rss $pids) min1=$(sum 8 $pids) maj1=$(sum 10 $pids)
		[ "$rss0" = "$rss1" ] && break
	done
	[ "$rss0" = "$rss1" ] || fail "$g: statm kept changing ($rss0, $rss1 pages)"
	count=$(value memtop_group_processes $g "$tmp/m")
	rss=$(value memtop_group_resident_bytes $g "$tmp/m")
	minf=$(value memtop_group_minor_faults_total $g "$tmp/m")
	majf=$(value memtop_group_major_faults_total $g "$tmp/m")
	echo "$g: $count processes (pids $pids), RSS $rss bytes (statm $rss0 pages), minor faults $min0 <= $minf <= $min1, major $maj0 <= $majf <= $maj1"
	[ "$count" = "$(echo $pids | wc -w)" ] || fail "$g: $count processes exported, $(echo $pids | wc -w) members"
	# a member that faults (alloc_child's second argument) holds up to rate/100 more pages
	# for a moment in each of its rounds: the sum is that much uncertain
	slack=$(slack_pages $g)
	[ "$rss" -ge $(((rss0 - slack) * page)) ] && [ "$rss" -le $(((rss0 + slack) * page)) ] ||
		fail "$g: resident $rss bytes, statm's sum $((rss0 * page)) (+-$slack pages)"
	[ -n "$minf" ] && [ "$minf" -ge "$min0" ] && [ "$minf" -le "$min1" ] ||
		fail "$g: minor faults '$minf' not within [$min0, $min1]"
	[ -n "$majf" ] && [ "$majf" -ge "$maj0" ] && [ "$majf" -le "$maj1" ] ||
		fail "$g: major faults '$majf' not within [$maj0, $maj1]"
done
promtool check metrics <"$tmp/m" >"$tmp/lint" 2>&1 || fail "promtool: $(head -5 "$tmp/lint")"
grep -q "^memtop_group_pss_bytes" "$tmp/m" && fail "PSS exported without --columns +pss"
grep -q '^memtop_process_' "$tmp/m" && fail "per-process series exported with --groups"
grep -q '^memtop_group_oom_kills_total{groupname="build"} 0$' "$tmp/m" || fail "no OOM kill count of 0 for build"

# PSS where read (--columns +pss): the sum of smaps_rollup's Pss over the idle members,
# within 2 %: memtop itself maps the libraries they share while it reads, which moves
# their shares of those pages
pss() { for p in "$@"; do awk '/^Pss:/ { print $2 }' "/proc/$p/smaps_rollup"; done | awk '{ s += $1 } END { print s }'; }
p0=$(pss $a1 $a2)
"$MEMTOP" --openmetrics --columns +pss --groups "$tmp/groups.yaml" >"$tmp/m" || fail "--columns +pss exited $?"
p1=$(pss $a1 $a2)
got=$(value memtop_group_pss_bytes c-gqalpha "$tmp/m")
echo "c-gqalpha: PSS $got bytes, smaps_rollup's sum $p0 KiB before, $p1 KiB after"
[ -n "$got" ] && awk -v g="$got" -v a="$p0" -v b="$p1" 'BEGIN {
	lo = (a < b ? a : b) * 1024 * 0.98; hi = (a > b ? a : b) * 1024 * 1.02
	exit !(g >= lo && g <= hi) }' || fail "c-gqalpha: PSS '$got' bytes, not within 2 % of $p0 or $p1 KiB"

# under --serve, a member's exit leaves its faults in the group's counter
port=$(free_port 29)
url=http://127.0.0.1:$port/metrics
"$MEMTOP" --serve "$port" -d 0.3 --groups "$tmp/groups.yaml" 2>"$tmp/err" &
pid=$!
scrape() { curl -sf -o "$tmp/s" "$url"; }
has_count() { scrape && [ "$(value memtop_group_processes build "$tmp/s")" = "$1" ]; }
eventually $HANG has_count 2 || fail "build never had 2 processes: $(cat "$tmp/err")"
# a refresh after b2 has faulted some thousands of times more than b1 ever did
gone=$(sum 8 $b2)
grown() { scrape && [ "$(value memtop_group_minor_faults_total build "$tmp/s")" -gt "$gone" ]; }
eventually $HANG grown || fail "build's minor faults never passed $gone"
f1=$(value memtop_group_minor_faults_total build "$tmp/s")
live=$(sum 8 $b1)
[ "$f1" -gt $((live + 1000)) ] || fail "build's faults $f1 are not mostly the faulting member's (b1 has $live)"
kill $b2
wait $b2 2>/dev/null
has_one() { has_count 1; }
eventually $HANG has_one || fail "build never had 1 process after $b2 exited"
f2=$(value memtop_group_minor_faults_total build "$tmp/s")
echo "build's minor faults: $f1 before $b2 exited, $f2 after (the member left: $(sum 8 $b1))"
[ "$f2" -ge "$f1" ] || fail "build's minor faults fell from $f1 to $f2 when $b2 exited"
promtool check metrics <"$tmp/s" >"$tmp/lint" 2>&1 || fail "promtool (--serve): $(head -5 "$tmp/lint")"

# by memory cgroup (the test's own: /proc/PID/cgroup's memory line, else its 0:: line),
# and --json's groups[]
cg=$(awk -F: '$2 == "memory" { print $3; found = 1 } END { if (!found) exit 1 }' /proc/$b1/cgroup ||
	awk -F: '$1 == 0 { print $3 }' /proc/$b1/cgroup)
re=$(printf '%s' "$cg" | sed 's/[].[\\*^$()+?{|]/\\&/g')
cat >"$tmp/cg.yaml" <<YAML
process_names:
  - name: incg
    cgroup: ['^$re\$']
    comm: [gqbuild]
  - name: "{{.ExeBase}}"
    comm: [gqalpha]
YAML
"$MEMTOP" --json -n 1 --groups "$tmp/cg.yaml" >"$tmp/j" 2>"$tmp/err" || fail "--json --groups exited $?: $(cat "$tmp/err")"
jq -c '.groups[]' "$tmp/j"
[ "$(jq '.groups[] | select(.groupname == "incg") | .count' "$tmp/j")" = 1 ] ||
	fail "the group of cgroup $cg ($re) does not hold gqbuild alone"
[ "$(jq '.groups[] | select(.groupname == "gqalpha") | .count' "$tmp/j")" = 2 ] ||
	fail "{{.ExeBase}}: no group gqalpha of 2 processes"
[ "$(jq '.groups | length' "$tmp/j")" = 2 ] || fail "groups other than incg and gqalpha"

# bad files: one line naming FILE:LINE, exit 1
bad() {
	printf "$1" >"$tmp/bad.yaml"
	"$MEMTOP" --openmetrics --groups "$tmp/bad.yaml" >"$tmp/out" 2>"$tmp/err" && fail "a bad file accepted: $1"
	[ $? = 1 ] || fail "exit status not 1 for: $1"
	[ "$(wc -l <"$tmp/err")" = 1 ] || fail "not one line: $(cat "$tmp/err")"
	grep -q "^memtop: --groups $tmp/bad.yaml:$2: $3" "$tmp/err" || fail "not '$tmp/bad.yaml:$2: $3...': $(cat "$tmp/err")"
	[ -s "$tmp/out" ] && fail "output despite a bad file"
	cat "$tmp/err"
}
bad 'process_names:\n  - comm: [a]\n    cmdline: ["a(("]\n' 3 "cmdline: 'a((' is not a regular expression"
bad 'process_names:\n  - comm: [a]\n    pid: 12\n' 3 "'pid' is not a key"
bad 'process_names:\n  - name: x\n  - comm: [a]\n' 2 "a rule with no matcher"
bad 'process_names:\n  - name: "{{.Pid}}"\n    comm: [a]\n' 2 "name: '{{.Pid}}' is not a field"
bad 'process_names:\n  - comm: [a, b\n' 2 "comm: a list not closed"
exit 0
