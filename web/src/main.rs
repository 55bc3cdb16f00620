//! The browser entry point: the same app as the desktop's, in a canvas.
//!
//! `web/build.sh` builds it for `wasm32-unknown-unknown` and binds it with
//! `wasm-bindgen`; `reversi-signaling --web-dir web/dist` serves it at
//! `/play/`. The same module also runs in the page's search worker
//! (`worker.js`), where it answers search jobs instead of opening the app.
//! Natively this binary only says where the browser build comes from.

#[cfg(target_arch = "wasm32")]
mod bench;
#[cfg(target_arch = "wasm32")]
mod page;

#[cfg(target_arch = "wasm32")]
fn main() {
    if reversi::platform::web::serve_searches() {
        bench::offer();
        return;
    }
    page::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("reversi-web is the browser build of Reversi: run web/build.sh");
    std::process::exit(2);
}
