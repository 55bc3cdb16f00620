#!/usr/bin/env bash
# Every test: the fast ones, the slow real-WebRTC games (marked #[ignore]
# so that `cargo test --workspace --release` runs the fast ones alone), the
# NAT traversal games on simulated networks, the mailbox on PostgreSQL,
# three signaling instances behind nginx and HAProxy with faults,
# the browser client in a real Chromium, and a short chaos soak.
# Installs what a fresh Debian machine lacks. The simulated networks need
# root (network namespaces); where they cannot be made those tests say why
# and are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

can_make_namespaces() {
  [ "$(id -u)" = 0 ] || { echo "not root"; return 1; }
  command -v ip >/dev/null || { echo "no ip command (Debian: iproute2)"; return 1; }
  local probe="reversi-probe-$$"
  ip netns add "$probe" 2>/dev/null || { echo "ip netns add is not permitted here"; return 1; }
  ip netns del "$probe"
}

namespaces=yes
if why=$(can_make_namespaces); then
  missing=()
  command -v iptables >/dev/null || missing+=(iptables)
  command -v turnserver >/dev/null || missing+=(coturn)
  command -v conntrack >/dev/null || missing+=(conntrack)
  if [ ${#missing[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
else
  namespaces=no
  echo "network namespace tests skipped: $why"
fi


# The cluster tests run three instances behind the shipped nginx and
# HAProxy configurations (tests/cluster.rs, tests/deploy_files.rs).
if [ "$(id -u)" = 0 ]; then
  proxies=()
  command -v nginx >/dev/null || proxies+=(nginx)
  command -v haproxy >/dev/null || proxies+=(haproxy)
  if [ ${#proxies[@]} -gt 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${proxies[@]}" >/dev/null
  fi
  # Debian starts the packaged services on :80; the tests run their own.
  for service in nginx haproxy; do
    if command -v systemctl >/dev/null && systemctl is-active --quiet "$service" 2>/dev/null; then
      systemctl stop "$service" || true
    fi
  done
fi

# The mailbox's PostgreSQL test starts its own server from Debian's package.
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  else
    echo "PostgreSQL is not installed and this is not root: the PostgreSQL test will say so and fail" >&2
  fi
fi

cargo test --workspace --release -- --include-ignored

# The browser client in a real Chromium (installs it and playwright-core).
tests/browser.sh

if [ "$namespaces" = yes ]; then
  cargo build --release --workspace --bins --examples
  # Four games with faults (outages up to 30 s) under full CPU load.
  "${CARGO_TARGET_DIR:-target}"/release/examples/soak --games 4 --seed 11 --max-level 4 --max-down 30
fi
