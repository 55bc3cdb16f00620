//! The page: starts the app in `#reversi_canvas`, and keeps
//! `#reversi_status` (a live region, hidden from sight) holding the app's
//! status as JSON, for screen readers and for the browser tests.

use eframe::wasm_bindgen::JsCast;
use reversi::app::{AppStatus, ReversiApp};

/// The app, plus the status last written into the page.
struct WebApp {
    app: ReversiApp,
    shown: Option<AppStatus>,
    /// Whether the page's link has been followed.
    linked: bool,
}

impl eframe::App for WebApp {
    fn update(&mut self, ctx: &egui::Context, frame: &mut eframe::Frame) {
        if !std::mem::replace(&mut self.linked, true) {
            let fragment = frame.info().web_info.location.hash.clone();
            if let Err(e) = self.app.open_link(&fragment) {
                log::warn!("{e}");
            }
        }
        self.app.update(ctx, frame);
        let status = self.app.status();
        if self.shown.as_ref() != Some(&status) {
            if let Some(element) = element("reversi_status") {
                element.set_text_content(serde_json::to_string(&status).ok().as_deref());
            }
            self.shown = Some(status);
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.app.save(storage);
    }
}

fn element(id: &str) -> Option<web_sys::Element> {
    web_sys::window()?.document()?.get_element_by_id(id)
}

/// Shows why the app could not start where the loading text was.
fn say(text: &str) {
    if let Some(loading) = element("reversi_loading") {
        loading.set_text_content(Some(text));
    }
}

/// `window.reversiBench(depth)`: the midgame search `reversi bench` times
/// (the same positions, the same depth), run here on the page, as JSON
/// `{"nodes": N, "ms": T}`: how fast the search is in this browser.
fn offer_benchmark() {
    use wasm_bindgen::closure::Closure;
    let bench = Closure::<dyn Fn(u32) -> String>::new(|depth: u32| {
        let positions = reversi::search::benchmark::midgame_positions();
        let started = reversi::platform::Instant::now();
        let nodes = reversi::search::benchmark::search_midgame_positions(&positions, depth.min(12));
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        serde_json::json!({ "nodes": nodes, "ms": ms }).to_string()
    });
    if let Some(window) = web_sys::window() {
        let _ = js_sys::Reflect::set(&window, &"reversiBench".into(), bench.as_ref());
    }
    // Lives as long as the page.
    bench.forget();
}

/// Starts the app in the page's canvas.
pub fn start() {
    eframe::WebLogger::init(log::LevelFilter::Info).ok();
    offer_benchmark();
    wasm_bindgen_futures::spawn_local(async {
        let Some(canvas) =
            element("reversi_canvas").and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        else {
            say("This page has no canvas for the game (#reversi_canvas).");
            return;
        };
        let started = eframe::WebRunner::new()
            .start(
                canvas,
                eframe::WebOptions::default(),
                Box::new(|cc| {
                    Ok(Box::new(WebApp {
                        app: ReversiApp::new(cc),
                        shown: None,
                        linked: false,
                    }))
                }),
            )
            .await;
        match started {
            Ok(()) => {
                if let Some(loading) = element("reversi_loading") {
                    loading.remove();
                }
            }
            Err(e) => say(&format!("The game could not start: {e:?}")),
        }
    });
}
