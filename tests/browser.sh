#!/usr/bin/env bash
# The browser client in a real Chromium (Debian's `chromium`, driven by npm
# `playwright-core`): builds the bundle (web/build.sh), serves it from a
# real `reversi-signaling --web-dir`, and runs the scenarios of
# web/e2e/run.mjs (all, or those named). Installs what a fresh Debian
# machine lacks. Prints "browser: N passed, M failed".
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
cargo build --release -p reversi -p reversi-signaling --bins

work=$(mktemp -d /tmp/reversi-browser.XXXXXX)
server=
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
"$target"/release/reversi-signaling --bind "127.0.0.1:$port" --db :memory: --web-dir web/dist \
  >"$work/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
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

REVERSI_URL="http://127.0.0.1:$port/play/" REVERSI_DAMAGED="$work/damaged.log" REVERSI_AUDIT="$audit" \
  node web/e2e/run.mjs "$@"
