#!/usr/bin/env bash
# Every test: the fast ones, the slow real-WebRTC games (marked #[ignore]
# so that `cargo test --workspace --release` runs the fast ones alone),
# and a short chaos soak on simulated networks. Installs what a fresh
# Debian machine lacks. The soak needs root (network namespaces); where
# they cannot be made it is skipped, saying why.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo test --workspace --release -- --include-ignored

can_make_namespaces() {
  [ "$(id -u)" = 0 ] || { echo "not root"; return 1; }
  command -v ip >/dev/null || { echo "no ip command (Debian: iproute2)"; return 1; }
  local probe="reversi-probe-$$"
  ip netns add "$probe" 2>/dev/null || { echo "ip netns add is not permitted here"; return 1; }
  ip netns del "$probe"
}

if why=$(can_make_namespaces); then
  if ! command -v iptables >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iptables >/dev/null
  fi
  cargo build --release --workspace --bins --examples
  # Four games with faults (outages up to 30 s) under full CPU load.
  target/release/examples/soak --games 4 --seed 11 --max-level 4 --max-down 30
else
  echo "chaos soak skipped: $why"
fi
