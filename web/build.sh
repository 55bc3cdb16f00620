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
# Reproducible: the same source and toolchain give the same bytes in any
# folder (web/reproducible.sh checks it). Cargo names this source's files
# relative to the workspace; registry crates are named under a fixed root
# instead of this user's cargo home, so another machine gets them too.
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
RUSTFLAGS="--remap-path-prefix=$cargo_home=/cargo" \
  cargo build -p reversi-web --bin reversi-web --target wasm32-unknown-unknown \
  --profile web --target-dir "$wasm_target"
rm -rf web/dist
# Without the function names (530 KB, 155 KB gzip, that only a debugger
# reads; a panic's message does not need them).
wasm-bindgen "$wasm_target"/wasm32-unknown-unknown/web/reversi-web.wasm \
  --target web --no-typescript --out-name reversi --out-dir web/dist \
  --remove-name-section
# The evaluation's weights, which only the search worker fetches.
cp src/search/pattern_weights.bin web/dist/
# The opening book of levels 8-10, which the search worker fetches too.
cp src/search/opening_book.bin web/dist/
# The Japanese font, which the page fetches only when Japanese is chosen
# (and checks against the SHA-256 the program holds).
cp src/app/i18n/NotoSansJP-subset.otf web/dist/
# The page and its search worker pin the script and the module by
# Subresource Integrity: a server that serves other bytes under these
# names gets them refused.
# (coreutils only: the hex digest, turned into bytes by printf, in base64)
sri() {
  local hex
  hex=$(sha384sum "web/dist/$1" | cut -d' ' -f1)
  # shellcheck disable=SC2059 # the format is the escaped digest
  echo "sha384-$(printf "$(echo "$hex" | sed 's/../\\x&/g')" | base64 -w0)"
}
for page in index.html worker.js; do
  sed -e "s|@SRI_REVERSI_JS@|$(sri reversi.js)|g" \
    -e "s|@SRI_REVERSI_BG_WASM@|$(sri reversi_bg.wasm)|g" \
    -e "s|@SRI_PATTERN_WEIGHTS_BIN@|$(sri pattern_weights.bin)|g" \
    -e "s|@SRI_OPENING_BOOK_BIN@|$(sri opening_book.bin)|g" \
    "web/$page" > "web/dist/$page"
  if grep -q '@SRI_' "web/dist/$page"; then
    echo "web/build.sh: $page names a file it does not pin" >&2
    exit 1
  fi
done
(cd web/dist && LC_ALL=C sha256sum -- * > SHA256SUMS)
echo "web/dist: $(du -sh web/dist | cut -f1), reversi_bg.wasm $(stat -c %s web/dist/reversi_bg.wasm) bytes, pattern_weights.bin $(stat -c %s web/dist/pattern_weights.bin) bytes"
# What a visitor downloads (gzip -9, as a server compresses): the page's
# own bundle before its first frame, and the weights the worker fetches.
gz() { local sum=0 f; for f; do sum=$((sum + $(gzip -9c "$f" | wc -c))); done; echo "$sum"; }
echo "gzip: page $(gz web/dist/index.html web/dist/reversi.js web/dist/reversi_bg.wasm) bytes, worker's weights $(gz web/dist/pattern_weights.bin) bytes, book $(gz web/dist/opening_book.bin) bytes"
# What `reversi-signaling --web-dir`, the page's footer and `reversi
# verify-page` name the bundle by.
echo "bundle sha256: $(sha256sum web/dist/SHA256SUMS | cut -d' ' -f1)"
