// The page's search worker: the same wasm module as the page, which sees
// that it runs in a worker and answers search jobs (src/platform/web.rs).
// Jobs that arrive while the module loads are kept and handed on.
const early = [];
self.onmessage = (event) => early.push(event.data);
import init from './reversi.js';
await init();
for (const data of early) {
  self.dispatchEvent(new MessageEvent('message', { data }));
}
