#!/usr/bin/env bash
# The real-WebRTC tests, run again and again while other programs keep both
# cores busy: `tests/stress.sh [RUNS]` (default 20). Prints each run's
# result and, at the end, how many passed.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}

cargo build --release --workspace --bins --tests >/dev/null 2>&1 || {
  echo "build failed" >&2
  exit 1
}
load=()
for _ in 1 2; do
  target/release/reversi perft 16 >/dev/null 2>&1 &
  load+=($!)
done
trap 'kill "${load[@]}" 2>/dev/null' EXIT

passed=0
for i in $(seq "$runs"); do
  started=$(date +%s)
  if cargo test --release --test network_faults --test network_cli --test desktop_app \
      -- --include-ignored >"/tmp/reversi-stress-$i.log" 2>&1; then
    passed=$((passed + 1))
    echo "run $i: ok in $(( $(date +%s) - started )) s"
    rm -f "/tmp/reversi-stress-$i.log"
  else
    echo "run $i: FAILED (see /tmp/reversi-stress-$i.log)"
  fi
done
echo "stress: $passed passed, $((runs - passed)) failed"
[ "$passed" = "$runs" ]
