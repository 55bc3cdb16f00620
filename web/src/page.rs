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
        note_frame_time(frame.info().cpu_usage);
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

/// Keeps `window.reversiFrameMs`, the longest time the app took for one
/// frame (its logic and painting, as eframe measures it; the browser's
/// rasterizing and compositing come after), so that the browser tests can
/// tell the app's own work from the browser's.
fn note_frame_time(cpu_seconds: Option<f32>) {
    let (Some(seconds), Some(window)) = (cpu_seconds, web_sys::window()) else {
        return;
    };
    let ms = f64::from(seconds) * 1000.0;
    let key = "reversiFrameMs".into();
    // Read back each time, so that a test may set it to 0 to start over.
    let longest = js_sys::Reflect::get(&window, &key)
        .ok()
        .and_then(|v| v.as_f64())
        .unwrap_or(0.0);
    if ms > longest {
        let _ = js_sys::Reflect::set(&window, &key, &ms.into());
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

/// Creates the canvas's WebGL 2 context before eframe asks for it, without
/// the multisampling and depth buffer a context has by default: egui
/// smooths its own edges and draws no depth, and on a machine without a
/// GPU (the browser rasterizing in software) the multisampled frame cost
/// several times the plain one. A later `getContext` returns this one.
fn claim_plain_webgl(canvas: &web_sys::HtmlCanvasElement) {
    let attributes = js_sys::Object::new();
    for (name, value) in [("antialias", false), ("depth", false), ("alpha", false)] {
        let _ = js_sys::Reflect::set(&attributes, &name.into(), &value.into());
    }
    // No WebGL 2 here: eframe falls back to WebGL 1 with its own defaults.
    let _ = canvas.get_context_with_context_options("webgl2", &attributes);
}

/// The footer: which bundle this page is, the SHA-256 of its SHA256SUMS
/// (what `web/build.sh` and `reversi-signaling` print). Computed here: a
/// page served over plain http, as on a LAN, has no WebCrypto.
fn show_bundle_name() {
    use sha2::{Digest as _, Sha256};
    wasm_bindgen_futures::spawn_local(async {
        let Ok((200, sums)) =
            reversi::platform::web::fetch("GET", "SHA256SUMS", None, 64 * 1024).await
        else {
            return;
        };
        let name: String = Sha256::digest(sums.as_bytes())
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        if let Some(footer) = element("reversi_bundle") {
            footer.set_text_content(Some(&format!("bundle sha256 {name}")));
        }
    });
}

/// Starts the app in the page's canvas.
pub fn start() {
    eframe::WebLogger::init(log::LevelFilter::Info).ok();
    show_bundle_name();
    wasm_bindgen_futures::spawn_local(async {
        let Some(canvas) =
            element("reversi_canvas").and_then(|e| e.dyn_into::<web_sys::HtmlCanvasElement>().ok())
        else {
            say("This page has no canvas for the game (#reversi_canvas).");
            return;
        };
        claim_plain_webgl(&canvas);
        let started = eframe::WebRunner::new()
            .start(
                canvas,
                eframe::WebOptions {
                    // A few operations less for every pixel, which counts
                    // where the browser rasterizes in software; the
                    // banding it smooths is not seen on a board of flat
                    // colours.
                    dithering: false,
                    ..eframe::WebOptions::default()
                },
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
