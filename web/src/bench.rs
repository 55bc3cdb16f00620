//! `self.reversiBench(depth)` in the search worker: the midgame search
//! `reversi bench` times (the same positions, the same depth), with the
//! evaluation the worker searches with, as JSON `{"nodes": N, "ms": T}`:
//! how fast the computer player is in this browser. The browser tests
//! call it in the worker and compare it with the native program, node for
//! node.

use eframe::wasm_bindgen::closure::Closure;

/// Puts `reversiBench` on the worker's global scope.
pub fn offer() {
    let bench = Closure::<dyn Fn(u32) -> String>::new(|depth: u32| {
        let positions = reversi::search::benchmark::midgame_positions();
        let started = reversi::platform::Instant::now();
        let nodes =
            reversi::search::benchmark::search_midgame_positions(&positions, depth.min(12), 1);
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        serde_json::json!({ "nodes": nodes, "ms": ms }).to_string()
    });
    let _ = js_sys::Reflect::set(&js_sys::global(), &"reversiBench".into(), bench.as_ref());
    // Lives as long as the worker.
    bench.forget();
}
