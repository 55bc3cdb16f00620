#!/usr/bin/env bash
# The browser client in a real Chromium (Debian's `chromium`, driven by npm
# `playwright-core`): builds the bundle (web/build.sh) and checks that it
# builds the same in another folder (web/reproducible.sh), serves it from a
# real `reversi-signaling --web-dir`, and runs the scenarios of
# web/e2e/run.mjs (all, or those named), some against native `reversi`
# programs over real WebRTC. Everything runs in a network namespace of its
# own with one interface (one end of a veth pair): WebRTC never offers loopback addresses,
# so the browser and the native side meet on that interface's address.
# Needs root (for the namespace). Installs what a fresh Debian machine
# lacks. Prints "browser: N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"

missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# Pinned; playwright-core drives the installed Chromium and downloads no browser.
if [ ! -f web/e2e/node_modules/playwright-core/package.json ] \
  || ! grep -q '"version": "1.65.1"' web/e2e/node_modules/playwright-core/package.json; then
  npm install --prefix web/e2e --no-save --no-package-lock --no-audit --no-fund playwright-core@1.65.1 >/dev/null
fi

bash web/build.sh
# The same bundle, byte for byte, from another folder.
bash web/reproducible.sh
# The programs the scenarios start. Built as tests/all.sh builds them for
# the soak that follows (with the examples, so with the dev-dependencies'
# features): one build of the library with the bundle inside, not two.
cargo build --release --workspace --bins --examples

work=$(mktemp -d /tmp/reversi-browser.XXXXXX)
ns="reversi-web-$$"
addr=10.213.0.1
port=3536
server=
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null
  ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null
  ip netns del "$ns" 2>/dev/null
  rm -rf "$work" /tmp/reversi-e2e-*
}
trap cleanup EXIT

ip netns add "$ns"
ip -n "$ns" link set lo up
ip -n "$ns" link add web0 type veth peer name web1
ip -n "$ns" link set web1 up
ip -n "$ns" addr add "$addr/24" dev web0
ip -n "$ns" link set web0 up
# A default route, so the browser takes web0 for its network.
ip -n "$ns" route add default dev web0
in_ns() { ip netns exec "$ns" "$@"; }

in_ns "$target"/release/reversi-signaling --bind "$addr:$port" --db :memory: --web-dir web/dist \
  >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do
  in_ns bash -c "exec 3<>/dev/tcp/$addr/$port" 2>/dev/null && break
  sleep 0.1
done

# A log with one character of record 6 changed, and what the audit says of it.
"$target"/release/reversi --data-dir "$work/data" selfplay --seed 5 --out "$work/game.log" >/dev/null
node - "$work" <<'JS'
const fs = require("fs");
const work = process.argv[2];
const lines = fs.readFileSync(`${work}/game.log`, "utf8").split("\n");
const at = lines[6].indexOf('","view"') - 4;
lines[6] = lines[6].slice(0, at) + (lines[6][at] === "A" ? "B" : "A") + lines[6].slice(at + 1);
fs.writeFileSync(`${work}/damaged.log`, lines.join("\n"));
JS
audit=$("$target"/release/reversi audit "$work/damaged.log" 2>&1 || true)

in_ns env REVERSI_URL="http://$addr:$port/play/" REVERSI_SERVER="ws://$addr:$port" \
  REVERSI_BIN="$(cd "$target" && pwd)/release/reversi" \
  REVERSI_DAMAGED="$work/damaged.log" REVERSI_AUDIT="$audit" \
  node web/e2e/run.mjs "$@"
