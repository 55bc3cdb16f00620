// The page's search worker: the same wasm module as the page, which sees
// that it runs in a worker and answers search jobs (src/platform/web.rs).
// Jobs that arrive while the module loads are kept and handed on.
const early = [];
self.onmessage = (event) => early.push(event.data);
// The script and the module are taken only with the bytes the page was
// built with (web/build.sh fills in their hashes, as in index.html).
const script = await fetch('./reversi.js', { integrity: '@SRI_REVERSI_JS@' }).then((r) => r.blob());
const { default: init } = await import(URL.createObjectURL(script));
await init({ module_or_path: fetch('./reversi_bg.wasm', { integrity: '@SRI_REVERSI_BG_WASM@' }) });
for (const data of early) {
  self.dispatchEvent(new MessageEvent('message', { data }));
}
