//! Settings' *Your key* panel: the player's key exported under a
//! passphrase, or a key exported elsewhere (`reversi identity export`,
//! the window or another browser) imported, so that one player keeps one
//! key, and their ratings, on the desktop and in the browser.
//!
//! The sealing is memory-hard (Argon2id, see [`crate::identity_export`])
//! and takes a moment: natively on a background thread; in the browser,
//! which gives a page one thread, on the page's own after a frame that
//! says so. Where the key lives differs (the data directory, the page's
//! storage); the panel itself is the same.

#[cfg(not(target_arch = "wasm32"))]
use std::sync::mpsc;

use super::i18n::t;
use crate::identity_export::{self, Cost, MIN_PASSPHRASE_CHARS};
use crate::match_log::Identity;

/// Where the player's key is kept.
#[derive(Debug, Clone)]
pub enum KeyHome {
    /// The data directory of the native program.
    #[cfg(not(target_arch = "wasm32"))]
    Dir(crate::data_dir::DataDir),
    /// The page's storage.
    #[cfg(target_arch = "wasm32")]
    Browser,
}

impl KeyHome {
    fn identity(&self) -> Result<Identity, String> {
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            KeyHome::Dir(dir) => dir.identity().map_err(|e| e.to_string()),
            #[cfg(target_arch = "wasm32")]
            KeyHome::Browser => crate::browser_data::identity().map_err(|e| e.to_string()),
        }
    }

    /// Makes `identity` this home's key; what happened, in words.
    fn adopt(&self, identity: &Identity, replace: bool) -> Result<String, String> {
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            KeyHome::Dir(dir) => {
                use crate::data_dir::Adopted;
                match dir
                    .adopt_identity(identity, replace)
                    .map_err(|e| e.to_string())?
                {
                    Adopted::Same(fingerprint) => {
                        Ok(t!("key-same", fingerprint = fingerprint.to_string()))
                    }
                    Adopted::New(fingerprint) => {
                        Ok(t!("key-new", fingerprint = fingerprint.to_string()))
                    }
                    Adopted::Replaced {
                        fingerprint,
                        previous,
                    } => Ok(t!(
                        "key-replaced",
                        fingerprint = fingerprint.to_string(),
                        previous = previous.display().to_string()
                    )),
                }
            }
            #[cfg(target_arch = "wasm32")]
            KeyHome::Browser => {
                crate::browser_data::adopt_identity(identity, replace).map_err(|e| e.to_string())
            }
        }
    }

    /// Hands an export to the player: a file in the data directory, or a
    /// download from the page; where it went, in words.
    fn deliver(&self, fingerprint: &str, text: &str) -> Result<String, String> {
        let name = format!("reversi-identity-{fingerprint}.txt");
        match self {
            #[cfg(not(target_arch = "wasm32"))]
            KeyHome::Dir(dir) => {
                use std::io::Write as _;
                let path = dir.path().join(&name);
                let _ = std::fs::remove_file(&path);
                let mut file = crate::data_dir::create_private(&path)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                file.write_all(text.as_bytes())
                    .and_then(|()| file.sync_all())
                    .map_err(|e| format!("{}: {e}", path.display()))?;
                Ok(t!("key-exported-to", path = path.display().to_string()))
            }
            #[cfg(target_arch = "wasm32")]
            KeyHome::Browser => {
                crate::platform::web::download(&name, text.as_bytes())
                    .map_err(|e| e.to_string())?;
                Ok(t!("key-downloaded", name = name.as_str()))
            }
        }
    }
}

/// What a finished job hands back to the page's thread.
enum Done {
    Sealed { fingerprint: String, text: String },
    Opened(Identity),
}

type Work = Box<dyn FnOnce() -> Result<Done, String> + Send>;

/// A job under way.
enum Job {
    /// Natively: on a background thread, its answer on this receiver.
    #[cfg(not(target_arch = "wasm32"))]
    Thread(mpsc::Receiver<Result<Done, String>>),
    /// In the browser: to run on the next frame, once "working" is shown.
    #[cfg(target_arch = "wasm32")]
    NextFrame(Option<Work>),
}

/// The panel's state (kept in the app for as long as it runs).
#[derive(Default)]
pub struct KeyTransfer {
    passphrase: String,
    again: String,
    import_text: String,
    replace: bool,
    job: Option<Job>,
    /// The last outcome: `Ok` what happened, `Err` why not.
    said: Option<Result<String, String>>,
    /// Whether the passphrase field takes the keyboard on the next frame
    /// (the `#key` link).
    focus: bool,
    /// The key's fingerprint, or why it cannot be read: read when the
    /// panel is first drawn and after an import, not on every frame.
    fingerprint: Option<Result<String, String>>,
}

impl std::fmt::Debug for KeyTransfer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the passphrase.
        f.debug_struct("KeyTransfer")
            .field("working", &self.job.is_some())
            .field("said", &self.said)
            .finish_non_exhaustive()
    }
}

fn seal(identity: &Identity, passphrase: &str) -> Result<Done, String> {
    let mut salt = [0u8; 16];
    let mut nonce = [0u8; 24];
    getrandom::fill(&mut salt)
        .and_then(|()| getrandom::fill(&mut nonce))
        .map_err(|e| format!("no random bytes: {e}"))?;
    let text = identity_export::seal(identity, passphrase, salt, nonce, Cost::DEFAULT)
        .map_err(|e| e.to_string())?;
    Ok(Done::Sealed {
        fingerprint: identity.public_key().fingerprint().as_compact().to_string(),
        text,
    })
}

impl KeyTransfer {
    /// Gives the passphrase field the keyboard on the next frame.
    pub fn focus_passphrase(&mut self) {
        self.focus = true;
    }

    /// The fingerprint of the player's key, once the panel has been drawn.
    pub fn fingerprint(&self) -> Option<&str> {
        self.fingerprint.as_ref()?.as_deref().ok()
    }

    /// The last outcome: `Ok` what happened, `Err` why not; `None` while a
    /// job runs, or before any.
    pub fn said(&self) -> Option<&Result<String, String>> {
        self.said.as_ref()
    }

    fn start(&mut self, ctx: &egui::Context, work: Work) {
        self.said = None;
        #[cfg(not(target_arch = "wasm32"))]
        {
            let (tx, rx) = mpsc::channel();
            let ctx = ctx.clone();
            let spawned = crate::background::spawn("reversi-key", move || {
                let _ = tx.send(work());
                ctx.request_repaint();
            });
            match spawned {
                Ok(_) => self.job = Some(Job::Thread(rx)),
                Err(e) => self.said = Some(Err(t!("key-cannot-start", why = e.to_string()))),
            }
        }
        #[cfg(target_arch = "wasm32")]
        {
            self.job = Some(Job::NextFrame(Some(work)));
            ctx.request_repaint();
        }
    }

    /// Takes a finished job's answer, if any.
    fn poll(&mut self, home: &KeyHome) {
        let answer = match self.job.as_mut() {
            None => return,
            #[cfg(not(target_arch = "wasm32"))]
            Some(Job::Thread(rx)) => match rx.try_recv() {
                Ok(answer) => answer,
                Err(mpsc::TryRecvError::Empty) => return,
                Err(mpsc::TryRecvError::Disconnected) => Err(t!("key-job-stopped")),
            },
            #[cfg(target_arch = "wasm32")]
            Some(Job::NextFrame(work)) => match work.take() {
                Some(work) => work(),
                None => Err(t!("key-job-stopped")),
            },
        };
        self.job = None;
        self.said = Some(answer.and_then(|done| match done {
            Done::Sealed { fingerprint, text } => home.deliver(&fingerprint, &text),
            Done::Opened(identity) => {
                let said = home.adopt(&identity, self.replace)?;
                self.import_text.clear();
                self.fingerprint = None;
                Ok(said)
            }
        }));
        self.passphrase.clear();
        self.again.clear();
    }

    /// Draws the panel and runs what it asks for.
    pub fn ui(&mut self, ui: &mut egui::Ui, home: &KeyHome) {
        self.poll(home);
        ui.heading(t!("key-heading"));
        let fingerprint = self
            .fingerprint
            .get_or_insert_with(|| {
                home.identity()
                    .map(|i| i.public_key().fingerprint().to_string())
            })
            .clone();
        ui.label(match &fingerprint {
            Ok(fingerprint) => t!("key-what", fingerprint = fingerprint.as_str()),
            Err(e) => e.clone(),
        });
        let label = ui.label(t!("key-passphrase", chars = MIN_PASSPHRASE_CHARS));
        let field = ui
            .add(egui::TextEdit::singleline(&mut self.passphrase).password(true))
            .labelled_by(label.id);
        if std::mem::take(&mut self.focus) {
            field.request_focus();
            field.scroll_to_me(Some(egui::Align::Center));
        }
        let label = ui.label(t!("key-again"));
        ui.add(egui::TextEdit::singleline(&mut self.again).password(true))
            .labelled_by(label.id);
        let long_enough = self.passphrase.chars().count() >= MIN_PASSPHRASE_CHARS;
        let idle = self.job.is_none();
        ui.horizontal(|ui| {
            let export = ui.add_enabled(
                idle && long_enough && self.again == self.passphrase && fingerprint.is_ok(),
                egui::Button::new(t!("key-export")),
            );
            if export.clicked()
                && let Ok(identity) = home.identity()
            {
                let passphrase = self.passphrase.clone();
                self.start(ui.ctx(), Box::new(move || seal(&identity, &passphrase)));
            }
        });
        let label = ui.label(t!("key-paste"));
        ui.add(
            egui::TextEdit::multiline(&mut self.import_text)
                .desired_rows(3)
                .desired_width(f32::INFINITY),
        )
        .labelled_by(label.id);
        ui.checkbox(&mut self.replace, t!("key-replace"));
        let import = ui.add_enabled(
            idle && long_enough && !self.import_text.trim().is_empty(),
            egui::Button::new(t!("key-import")),
        );
        if import.clicked() {
            let (text, passphrase) = (self.import_text.clone(), self.passphrase.clone());
            self.start(
                ui.ctx(),
                Box::new(move || {
                    identity_export::open(&text, &passphrase)
                        .map(Done::Opened)
                        .map_err(|e| e.to_string())
                }),
            );
        }
        match (&self.job, &self.said) {
            (Some(_), _) => {
                ui.label(t!("key-working"));
            }
            (None, Some(Ok(said))) => {
                ui.label(said.as_str());
            }
            (None, Some(Err(why))) => {
                ui.colored_label(egui::Color32::from_rgb(0xe0, 0x60, 0x60), why.as_str());
            }
            (None, None) => {}
        }
    }
}
