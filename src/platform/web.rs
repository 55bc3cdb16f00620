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
                if let Ok(mut s) = s.try_borrow_mut() {
                    if let Some(old) = s.take() {
                        old.worker.terminate();
                    }
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

/// A request with the page's `fetch`: the status and the body (UTF-8, at
/// most `max_bytes`).
pub async fn fetch(
    method: &str,
    url: &str,
    body: Option<&[u8]>,
    max_bytes: usize,
) -> Result<(u16, String), FetchError> {
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
    let text = String::from_utf8(bytes).map_err(|_| FetchError::Malformed("body is not UTF-8".into()))?;
    Ok((response.status(), text))
}
