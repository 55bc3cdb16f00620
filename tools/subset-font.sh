#!/usr/bin/env bash
# Makes src/app/i18n/NotoSansJP-subset.otf: Noto Sans CJK JP (Debian's
# fonts-noto-cjk, SIL Open Font License 1.1) cut down to the characters
# of src/app/i18n/ja.ftl, and records its SHA-256 in src/app/fonts.rs
# (the browser checks the fetched file against it). Run it after changing
# ja.ftl; the test `the_font_draws_every_character_of_the_japanese_texts`
# says when it is due. Installs Debian's fonts-noto-cjk and fonttools if
# they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."

source_font=/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
if [[ ! -f $source_font ]] || ! command -v pyftsubset >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    fonts-noto-cjk fonttools >/dev/null
fi
out=src/app/i18n/NotoSansJP-subset.otf
chars=$(mktemp)
trap 'rm -f "$chars"' EXIT
# Every character outside ASCII that ja.ftl uses (comments included: they
# cost little and keep the rule simple).
python3 - src/app/i18n/ja.ftl >"$chars" <<'PY'
import sys
text = open(sys.argv[1], encoding="utf-8").read()
print("".join(sorted({c for c in text if ord(c) > 127})))
PY
# Font number 0 of the collection is the Japanese face.
pyftsubset "$source_font" --font-number=0 --text-file="$chars" \
  --output-file="$out" --no-hinting --desubroutinize --layout-features='' \
  --name-IDs='*' --name-languages='*'
hash=$(sha256sum "$out" | cut -d' ' -f1)
sed -i -E "s/^(pub const SHA256: &str = )\"[^\"]*\";/\\1\"$hash\";/" src/app/fonts.rs
echo "$out: $(stat -c %s "$out") bytes, $(wc -m <"$chars") characters, sha256 $hash"
