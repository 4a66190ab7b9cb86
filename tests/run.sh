#!/bin/sh
# Runs every memtop test and ends with "N passed, N failed".
# Unit tests: build/unit_tests (cmocka). Script tests: tests/{cli,screen,bpf}/*.sh, each
# exits 0 (pass), 77 (skip) or anything else (fail). With MEMTOP_REQUIRE_BPF=1 a skip fails.
cd "$(dirname "$0")/.." || exit 1
export MEMTOP="$PWD/build/memtop" HELPERS="$PWD/build/tests" TESTS="$PWD/tests"
passed=0 failed=0 skipped=0 failures=""
log=$(mktemp -d /tmp/memtop-tests.XXXXXX)

# cmocka: one line per test; count its own verdicts
./build/unit_tests >"$log/unit.out" 2>&1
unit_rc=$?
cat "$log/unit.out"
up=$(grep -c '^\[       OK \]' "$log/unit.out")
uf=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$log/unit.out" | awk '{s += $1} END {print s + 0}')
passed=$((passed + up))
failed=$((failed + uf))
if [ "$unit_rc" -ne 0 ] && [ "$uf" -eq 0 ]; then
	failed=$((failed + 1))
	failures="$failures unit_tests(rc=$unit_rc)"
fi

for t in tests/cli/*.sh tests/screen/*.sh tests/bpf/*.sh; do
	[ -f "$t" ] || continue
	name=${t#tests/}
	start=$(date +%s)
	sh "$t" >"$log/out" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	if [ $rc -eq 77 ] && [ "${MEMTOP_REQUIRE_BPF:-0}" = 1 ]; then
		echo "FAIL  $name (skipped, but MEMTOP_REQUIRE_BPF=1) ${secs}s"
		sed 's/^/    /' "$log/out"
		failed=$((failed + 1))
		failures="$failures $name"
	elif [ $rc -eq 77 ]; then
		echo "SKIP  $name: $(tail -n 1 "$log/out")"
		skipped=$((skipped + 1))
	elif [ $rc -eq 0 ]; then
		echo "PASS  $name ${secs}s"
		passed=$((passed + 1))
	else
		echo "FAIL  $name (exit $rc) ${secs}s"
		sed 's/^/    /' "$log/out"
		failed=$((failed + 1))
		failures="$failures $name"
	fi
done
rm -rf "$log"
[ -n "$failures" ] && echo "failed:$failures"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
