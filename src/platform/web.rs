//! The browser's half of the platform layer: searches in a Web Worker.
//!
//! The page has one thread, and a level-10 search takes seconds there, so
//! searches run in a dedicated worker: a second instance of the same wasm
//! module, started from `worker.js` beside the page, which runs
//! [`serve_searches`] instead of the app. Jobs and answers cross as bytes
//! ([`crate::thinking`]); the worker takes them one at a time, in order,
//! so the answers come back in the order the jobs went.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::mpsc;

use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent, Worker, WorkerOptions, WorkerType};

use super::Thinking;
use crate::thinking::{ThinkAnswer, ThinkError, ThinkJob, read_reply, serve};

/// The script that starts a search worker, relative to the page.
const WORKER_SCRIPT: &str = "./worker.js";

type Reply = (mpsc::Sender<Result<ThinkAnswer, ThinkError>>, Box<dyn Fn()>);

/// The page's search worker and the replies it owes, oldest first.
struct Searcher {
    worker: Worker,
    owed: Rc<RefCell<VecDeque<Reply>>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

thread_local! {
    static SEARCHER: RefCell<Option<Searcher>> = const { RefCell::new(None) };
}

fn start_searcher() -> Result<Searcher, ThinkError> {
    let unavailable = |e: wasm_bindgen::JsValue| ThinkError::Unavailable {
        reason: format!("{e:?}"),
    };
    let options = WorkerOptions::new();
    options.set_type(WorkerType::Module);
    let worker = Worker::new_with_options(WORKER_SCRIPT, &options).map_err(unavailable)?;
    let owed: Rc<RefCell<VecDeque<Reply>>> = Rc::default();
    let on_message = {
        let owed = Rc::clone(&owed);
        Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let bytes = js_sys::Uint8Array::new(&event.data()).to_vec();
            if let Some((tx, wake)) = owed.borrow_mut().pop_front() {
                let _ = tx.send(read_reply(&bytes));
                wake();
            }
        })
    };
    // A worker that fails (it could not load, or a search trapped) owes
    // every reply: each gets the reason, and the next job starts a new one.
    let on_error = {
        let owed = Rc::clone(&owed);
        Closure::<dyn FnMut(web_sys::Event)>::new(move |event: web_sys::Event| {
            let reason = event
                .dyn_ref::<web_sys::ErrorEvent>()
                .map_or_else(|| "the search worker failed".to_string(), |e| e.message());
            for (tx, wake) in owed.borrow_mut().drain(..) {
                let _ = tx.send(Err(ThinkError::Unavailable {
                    reason: reason.clone(),
                }));
                wake();
            }
            SEARCHER.with(|s| {
                if let Ok(mut s) = s.try_borrow_mut()
                    && let Some(old) = s.take()
                {
                    old.worker.terminate();
                }
            });
        })
    };
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    Ok(Searcher {
        worker,
        owed,
        _on_message: on_message,
        _on_error: on_error,
    })
}

/// Sends a job to the page's search worker (starting it the first time).
pub(super) fn think(job: ThinkJob, wake: Box<dyn Fn()>) -> Thinking {
    let (tx, rx) = mpsc::channel();
    SEARCHER.with(|slot| {
        let mut slot = slot.borrow_mut();
        if slot.is_none() {
            match start_searcher() {
                Ok(searcher) => *slot = Some(searcher),
                Err(e) => {
                    let _ = tx.send(Err(e));
                    return;
                }
            }
        }
        let Some(searcher) = slot.as_ref() else {
            return;
        };
        let bytes = js_sys::Uint8Array::from(job.to_bytes().as_slice());
        match searcher.worker.post_message(&bytes) {
            Ok(()) => searcher.owed.borrow_mut().push_back((tx, wake)),
            Err(e) => {
                let _ = tx.send(Err(ThinkError::Unavailable {
                    reason: format!("{e:?}"),
                }));
            }
        }
    });
    rx
}

/// In a worker started from `worker.js`: answers the page's search jobs
/// and returns `true`. On the page itself: does nothing and returns
/// `false` (the page runs the app).
pub fn serve_searches() -> bool {
    let Ok(scope) = js_sys::global().dyn_into::<DedicatedWorkerGlobalScope>() else {
        return false;
    };
    let evaluation = match install_fetched_weights(&scope) {
        Ok(bytes) => format!("patterns ({bytes} bytes)"),
        Err(reason) => {
            web_sys::console::warn_1(
                &format!("the search evaluates without its pattern weights: {reason}").into(),
            );
            format!("linear: {reason}")
        }
    };
    let book = match install_fetched_book(&scope) {
        Ok(positions) => format!("book ({positions} positions)"),
        Err(reason) => {
            web_sys::console::warn_1(
                &format!("levels 8-10 search without the opening book: {reason}").into(),
            );
            format!("none: {reason}")
        }
    };
    // What the worker evaluates with, for the browser tests (and anyone
    // curious in the developer tools).
    let _ = js_sys::Reflect::set(&scope, &WEIGHTS_IN_USE.into(), &evaluation.into());
    let _ = js_sys::Reflect::set(&scope, &BOOK_IN_USE.into(), &book.into());
    let reply_to = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let bytes = js_sys::Uint8Array::new(&event.data()).to_vec();
        let reply = js_sys::Uint8Array::from(serve(&bytes).as_slice());
        let _ = reply_to.post_message(&reply);
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    true
}

/// The worker's global that `worker.js` fills with the weights file's bytes
/// (or a string saying why it could not).
const FETCHED_WEIGHTS: &str = "reversiPatternWeights";
/// The worker's global that says what it evaluates with: `patterns (N
/// bytes)`, or `linear: why`.
const WEIGHTS_IN_USE: &str = "reversiEvaluation";

/// The worker's global that `worker.js` fills with the opening book's
/// bytes (or a string saying why it could not).
const FETCHED_BOOK: &str = "reversiOpeningBook";
/// The worker's global that says whether levels 8–10 play from the book:
/// `book (N positions)`, or `none: why`.
const BOOK_IN_USE: &str = "reversiBook";

/// The bytes `worker.js` left in the global `name` (at most `max`), taken
/// from it; or why there are none.
fn take_fetched(
    scope: &DedicatedWorkerGlobalScope,
    name: &str,
    max: usize,
) -> Result<Vec<u8>, String> {
    let fetched = js_sys::Reflect::get(scope, &name.into())
        .map_err(|_| format!("{name} could not be read"))?;
    // The bytes are needed only once.
    let _ = js_sys::Reflect::delete_property(scope, &name.into());
    if let Some(why) = fetched.as_string() {
        return Err(why);
    }
    let array = fetched
        .dyn_into::<js_sys::Uint8Array>()
        .map_err(|_| format!("worker.js left no bytes in {name}"))?;
    if array.length() as usize > max {
        return Err(format!("the file is larger than {max} bytes"));
    }
    Ok(array.to_vec())
}

/// Installs the opening book `worker.js` fetched (checked by Subresource
/// Integrity there, and by its own digest here): how many positions it
/// holds, or why levels 8–10 go on without it.
fn install_fetched_book(scope: &DedicatedWorkerGlobalScope) -> Result<usize, String> {
    use crate::search::book;
    let bytes = take_fetched(scope, FETCHED_BOOK, book::MAX_FILE)?;
    let checked = book::OpeningBook::decode(&bytes).map_err(|e| e.to_string())?;
    let positions = checked.len();
    book::install(Some(checked)).map_err(|e| e.to_string())?;
    Ok(positions)
}

/// Installs the pattern weights `worker.js` fetched (checked by Subresource
/// Integrity there, and by their own digest here), before the first search.
/// Their size, or why the worker goes on with the linear evaluation.
fn install_fetched_weights(scope: &DedicatedWorkerGlobalScope) -> Result<usize, String> {
    let bytes = take_fetched(scope, FETCHED_WEIGHTS, crate::search::patterns::MAX_FILE)?;
    let weights =
        crate::search::patterns::PatternWeights::decode(&bytes).map_err(|e| e.to_string())?;
    crate::search::patterns::install(Some(weights)).map_err(|e| e.to_string())?;
    Ok(bytes.len())
}

/// Why a `fetch` failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    /// No answer (network, CORS, the server down).
    #[error("{0}")]
    Unreachable(String),
    /// An answer too large, or not text.
    #[error("{0}")]
    Malformed(String),
}

/// Why a pinned file from beside the page is not at hand.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PinnedFileError {
    /// It could not be fetched.
    #[error(transparent)]
    Fetch(#[from] FetchError),
    /// Its bytes are not the ones the program expects.
    #[error("{url} has SHA-256 {found}, not {expected}")]
    Mismatch {
        /// The URL the file was fetched from.
        url: String,
        /// The hash the program knows.
        expected: String,
        /// The hash of what came.
        found: String,
    },
}

/// A request with the page's `fetch`: the status and the body (UTF-8, at
/// most `max_bytes`).
pub async fn fetch(
    method: &str,
    url: &str,
    body: Option<&[u8]>,
    max_bytes: usize,
) -> Result<(u16, String), FetchError> {
    let (status, bytes) = fetch_bytes(method, url, body, max_bytes).await?;
    let text =
        String::from_utf8(bytes).map_err(|_| FetchError::Malformed("body is not UTF-8".into()))?;
    Ok((status, text))
}

/// A file from beside the page, at most `max_bytes`, refused unless its
/// SHA-256 is `sha256` (hex): the same pinning as Subresource Integrity.
pub async fn fetch_checked(
    url: &str,
    sha256: &str,
    max_bytes: usize,
) -> Result<Vec<u8>, PinnedFileError> {
    use sha2::Digest as _;
    let (status, bytes) = fetch_bytes("GET", url, None, max_bytes).await?;
    if status != 200 {
        return Err(FetchError::Unreachable(format!("{url}: HTTP {status}")).into());
    }
    let found = data_encoding::HEXLOWER.encode(&sha2::Sha256::digest(&bytes));
    if found != sha256 {
        return Err(PinnedFileError::Mismatch {
            url: url.to_string(),
            expected: sha256.to_string(),
            found,
        });
    }
    Ok(bytes)
}

/// A request with the page's `fetch`: the status and the body's bytes (at
/// most `max_bytes`).
async fn fetch_bytes(
    method: &str,
    url: &str,
    body: Option<&[u8]>,
    max_bytes: usize,
) -> Result<(u16, Vec<u8>), FetchError> {
    use wasm_bindgen_futures::JsFuture;
    let unreachable = |e: wasm_bindgen::JsValue| {
        FetchError::Unreachable(e.as_string().unwrap_or_else(|| format!("{e:?}")))
    };
    let init = web_sys::RequestInit::new();
    init.set_method(method);
    if let Some(body) = body {
        let headers = web_sys::Headers::new().map_err(unreachable)?;
        headers
            .set("Content-Type", "application/octet-stream")
            .map_err(unreachable)?;
        init.set_headers(&headers);
        init.set_body(&js_sys::Uint8Array::from(body));
    }
    let window = web_sys::window()
        .ok_or_else(|| FetchError::Unreachable("no window to fetch from".into()))?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str_and_init(url, &init))
        .await
        .map_err(unreachable)?
        .dyn_into()
        .map_err(|_| FetchError::Malformed("fetch gave no response".into()))?;
    let declared = response
        .headers()
        .get("Content-Length")
        .ok()
        .flatten()
        .and_then(|l| l.parse::<usize>().ok());
    if declared.is_some_and(|l| l > max_bytes) {
        return Err(FetchError::Malformed(format!(
            "body longer than {max_bytes} bytes"
        )));
    }
    let buffer = JsFuture::from(response.array_buffer().map_err(unreachable)?)
        .await
        .map_err(unreachable)?;
    let bytes = js_sys::Uint8Array::new(&buffer).to_vec();
    if bytes.len() > max_bytes {
        return Err(FetchError::Malformed(format!(
            "body longer than {max_bytes} bytes"
        )));
    }
    Ok((response.status(), bytes))
}

/// What the browser refused, in its own words where it gave any.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BrowserError {
    /// The code runs where there is no window or document (a worker).
    #[error("this page has no window or document")]
    NoDocument,
    /// The browser keeps no storage for this site (storage is off, or a
    /// private window refuses it).
    #[error("this browser keeps no storage for this site")]
    NoStorage,
    /// The storage refused a value: the browser's name for why (for
    /// example `QuotaExceededError`).
    #[error("{0}: the storage is full or off")]
    StorageRefused(String),
    /// A browser call threw: what it said.
    #[error("the browser refused: {0}")]
    Threw(String),
}

/// What a browser call threw, as the browser prints it.
fn threw(e: wasm_bindgen::JsValue) -> BrowserError {
    BrowserError::Threw(format!("{e:?}"))
}

/// The page's `localStorage`, if the browser lets this site have one.
fn local_storage() -> Result<web_sys::Storage, BrowserError> {
    web_sys::window()
        .ok_or(BrowserError::NoDocument)?
        .local_storage()
        .map_err(threw)?
        .ok_or(BrowserError::NoStorage)
}

/// The text stored under `key`, if any.
pub fn stored(key: &str) -> Option<String> {
    local_storage().ok()?.get_item(key).ok().flatten()
}

/// Stores `value` under `key`; the reason when the browser refuses (the
/// quota is full, or storage is off for this site).
pub fn store(key: &str, value: &str) -> Result<(), BrowserError> {
    local_storage()?.set_item(key, value).map_err(|e| {
        match js_sys::Reflect::get(&e, &"name".into())
            .ok()
            .and_then(|n| n.as_string())
        {
            Some(name) => BrowserError::StorageRefused(name),
            None => threw(e),
        }
    })
}

/// The stored keys that start with `prefix`.
pub fn stored_keys(prefix: &str) -> Vec<String> {
    let Ok(storage) = local_storage() else {
        return Vec::new();
    };
    let count = storage.length().unwrap_or(0);
    (0..count)
        .filter_map(|i| storage.key(i).ok().flatten())
        .filter(|k| k.starts_with(prefix))
        .collect()
}

/// Offers `bytes` to the person as a file named `name` (the browser's
/// download).
pub fn download(name: &str, bytes: &[u8]) -> Result<(), BrowserError> {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/octet-stream");
    let blob =
        web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(threw)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(threw)?;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or(BrowserError::NoDocument)?;
    let anchor: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(threw)?
        .dyn_into()
        .map_err(|e| threw(e.into()))?;
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

thread_local! {
    /// The page's audio context, made at the first sound (browsers allow
    /// one only after the person has interacted with the page).
    static AUDIO: std::cell::RefCell<Option<web_sys::AudioContext>> =
        const { std::cell::RefCell::new(None) };
}

/// Plays mono `samples` at `rate` through Web Audio, without waiting; a
/// page that cannot play stays silent.
pub fn play_samples(samples: &[f32], rate: u32) {
    AUDIO.with(|audio| {
        let mut audio = audio.borrow_mut();
        if audio.is_none() {
            *audio = web_sys::AudioContext::new().ok();
        }
        let Some(context) = audio.as_ref() else {
            return;
        };
        // A context made before the first click starts suspended.
        let _ = context.resume();
        let Ok(buffer) = context.create_buffer(1, samples.len() as u32, rate as f32) else {
            return;
        };
        if buffer.copy_to_channel(samples, 0).is_err() {
            return;
        }
        let Ok(source) = context.create_buffer_source() else {
            return;
        };
        source.set_buffer(Some(&buffer));
        if source
            .connect_with_audio_node(&context.destination())
            .is_ok()
        {
            let _ = source.start();
        }
    });
}

/// Sets the page's title (the browser tab's name).
pub fn set_title(title: &str) {
    if let Some(document) = web_sys::window().and_then(|w| w.document()) {
        document.set_title(title);
    }
}

/// The page's origin as a signaling server address (`ws://host:port` or
/// `wss://host`), where the page was served from.
pub fn page_server() -> Option<String> {
    let location = web_sys::window()?.location();
    let protocol = location.protocol().ok()?;
    let host = location.host().ok()?;
    let scheme = if protocol == "https:" { "wss" } else { "ws" };
    Some(format!("{scheme}://{host}"))
}
