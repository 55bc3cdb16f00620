#!/usr/bin/env bash
# Builds the browser bundle into web/dist/: the app compiled for
# wasm32-unknown-unknown, bound by wasm-bindgen-cli at exactly the
# wasm-bindgen version in Cargo.lock (the two must match), plus the page
# and its search worker, and SHA256SUMS of every file. Installs the wasm
# target and the matching wasm-bindgen-cli from the package registries if
# they are missing; downloads nothing else.
set -euo pipefail
cd "$(dirname "$0")/.."

rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown \
  || rustup target add wasm32-unknown-unknown
want=$(cargo pkgid -p wasm-bindgen | sed 's/.*@//')
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $want"; then
  # --locked first; a registry without one of its pinned dependencies gets
  # the newest compatible ones instead (the CLI's own version is fixed).
  cargo install wasm-bindgen-cli --version "$want" --locked \
    || cargo install wasm-bindgen-cli --version "$want"
fi

# Beside the native build, so the two never rebuild each other.
wasm_target="${CARGO_TARGET_DIR:-target}/wasm"
cargo build -p reversi-web --bin reversi-web --target wasm32-unknown-unknown \
  --profile web --target-dir "$wasm_target"
rm -rf web/dist
wasm-bindgen "$wasm_target"/wasm32-unknown-unknown/web/reversi-web.wasm \
  --target web --no-typescript --out-name reversi --out-dir web/dist
cp web/index.html web/worker.js web/dist/
(cd web/dist && sha256sum -- * > SHA256SUMS)
echo "web/dist: $(du -sh web/dist | cut -f1), reversi_bg.wasm $(stat -c %s web/dist/reversi_bg.wasm) bytes"
