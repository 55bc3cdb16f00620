// The page's search worker: the same wasm module as the page, which sees
// that it runs in a worker and answers search jobs (src/platform/web.rs).
// Jobs that arrive while the module loads are kept and handed on.
const early = [];
self.onmessage = (event) => early.push(event.data);
// The script, the module and the evaluation's weights are taken only with
// the bytes the page was built with (web/build.sh fills in their hashes,
// as in index.html), all three fetched at once. The weights are not in the
// module: only this worker evaluates, so the page's first frame never
// waits for them. Without them (refused, missing, or not here within 60 s)
// the worker searches with the linear evaluation and says why
// (self.reversiEvaluation). The opening book (levels 8-10) comes the same
// way; without it those levels search every move (self.reversiBook says).
const fetchPinned = (name, integrity) =>
  fetch(`./${name}`, { integrity, signal: AbortSignal.timeout(60000) })
    .then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error(`HTTP ${r.status}`))))
    .then((buffer) => new Uint8Array(buffer))
    .catch((e) => `${name} could not be fetched: ${e.message}`);
const weights = fetchPinned('pattern_weights.bin', '@SRI_PATTERN_WEIGHTS_BIN@');
const book = fetchPinned('opening_book.bin', '@SRI_OPENING_BOOK_BIN@');
const module = fetch('./reversi_bg.wasm', { integrity: '@SRI_REVERSI_BG_WASM@' });
const script = await fetch('./reversi.js', { integrity: '@SRI_REVERSI_JS@' }).then((r) => r.blob());
const { default: init } = await import(URL.createObjectURL(script));
self.reversiPatternWeights = await weights;
self.reversiOpeningBook = await book;
await init({ module_or_path: module });
for (const data of early) {
  self.dispatchEvent(new MessageEvent('message', { data }));
}
