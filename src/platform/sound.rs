//! The game's three sounds, made by the program (no sound files, so no
//! licence to carry): a disc placed, your turn after the opponent's move,
//! and the end of a game. The synthesis is pure and the same everywhere;
//! playing differs: in the browser through Web Audio, natively through
//! the system's own player (PipeWire's `pw-play`, PulseAudio's `paplay`,
//! ALSA's `aplay`, macOS's `afplay`), so that building the program needs
//! no audio library of the system. Without any of them the game is
//! silent, and says nothing: sound is a nicety, never an error.

/// A sound the game makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sound {
    /// A disc placed on the board.
    Place,
    /// The opponent has moved: your turn.
    YourTurn,
    /// The game is over.
    GameOver,
}

/// Samples per second of the sounds.
pub const SAMPLE_RATE: u32 = 22_050;

/// The sound's samples, mono, in −1…1.
pub fn samples(sound: Sound) -> Vec<f32> {
    match sound {
        Sound::Place => thock(),
        Sound::YourTurn => notes(&[(660.0, 0.09), (880.0, 0.16)], 0.28),
        Sound::GameOver => notes(&[(523.25, 0.14), (659.25, 0.14), (783.99, 0.40)], 0.3),
    }
}

/// A disc meeting the board: a low knock under a short burst of noise.
fn thock() -> Vec<f32> {
    let length = (SAMPLE_RATE as f32 * 0.07) as usize;
    // A fixed linear congruential sequence: the same click every time.
    let mut state: u32 = 0x2545_f491;
    (0..length)
        .map(|i| {
            let t = i as f32 / SAMPLE_RATE as f32;
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let noise = (state >> 8) as f32 / (1u32 << 24) as f32 * 2.0 - 1.0;
            let knock = (std::f32::consts::TAU * 170.0 * t).sin();
            0.5 * (0.35 * noise * (-t * 260.0).exp() + knock * (-t * 55.0).exp())
        })
        .collect()
}

/// Notes one after another, each `(hertz, seconds)`, with a soft attack
/// and a decay, at `volume`.
fn notes(notes: &[(f32, f32)], volume: f32) -> Vec<f32> {
    let mut out = Vec::new();
    for &(hertz, seconds) in notes {
        let length = (SAMPLE_RATE as f32 * seconds) as usize;
        out.extend((0..length).map(|i| {
            let t = i as f32 / SAMPLE_RATE as f32;
            let attack = (t / 0.005).min(1.0);
            let decay = (-t * 4.0 / seconds).exp();
            let tone = (std::f32::consts::TAU * hertz * t).sin()
                + 0.3 * (std::f32::consts::TAU * 2.0 * hertz * t).sin();
            volume * attack * decay * tone / 1.3
        }));
    }
    out
}

/// The sound as a WAV file (16-bit mono).
#[cfg(not(target_arch = "wasm32"))]
pub fn wav(sound: Sound) -> Vec<u8> {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: SAMPLE_RATE,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut bytes = std::io::Cursor::new(Vec::new());
    // Writing to memory fails only on an invalid spec, and this one is fixed.
    if let Ok(mut writer) = hound::WavWriter::new(&mut bytes, spec) {
        for sample in samples(sound) {
            let _ = writer.write_sample((sample.clamp(-1.0, 1.0) * f32::from(i16::MAX)) as i16);
        }
        let _ = writer.finalize();
    }
    bytes.into_inner()
}

/// The players tried natively, in order, each with its arguments before
/// the file.
#[cfg(not(target_arch = "wasm32"))]
const PLAYERS: &[&[&str]] = &[&["pw-play"], &["paplay"], &["aplay", "-q"], &["afplay"]];

/// Plays `sound` without waiting for it.
#[cfg(not(target_arch = "wasm32"))]
pub fn play(sound: Sound) {
    use std::sync::atomic::{AtomicBool, Ordering};
    // Once no player is found, the game stays silent without looking again.
    static SILENT: AtomicBool = AtomicBool::new(false);
    if SILENT.load(Ordering::Relaxed) {
        return;
    }
    let spawned = crate::background::spawn("reversi-sound", move || {
        if native::play_with(PLAYERS, sound).is_err() {
            SILENT.store(true, Ordering::Relaxed);
        }
    });
    if spawned.is_err() {
        SILENT.store(true, Ordering::Relaxed);
    }
}

/// Plays `sound` without waiting for it.
#[cfg(target_arch = "wasm32")]
pub fn play(sound: Sound) {
    super::web::play_samples(&samples(sound), SAMPLE_RATE);
}

#[cfg(not(target_arch = "wasm32"))]
pub(crate) mod native {
    use std::path::PathBuf;
    use std::process::{Command, Stdio};

    use super::{Sound, wav};

    /// Why no sound was played.
    #[derive(Debug, thiserror::Error)]
    pub enum SoundError {
        /// The sound's file could not be written.
        #[error("cannot write {path}: {source}")]
        Write {
            /// The sound's WAV file in the temporary directory.
            path: PathBuf,
            /// What the system said.
            source: std::io::Error,
        },
        /// None of the players could be started, or none played the file.
        #[error("no sound player found (tried {tried})")]
        NoPlayer {
            /// The players' names.
            tried: String,
        },
    }

    /// Where a sound's file is kept (written once a run).
    fn file(sound: Sound) -> PathBuf {
        std::env::temp_dir().join(format!("reversi-{}-{sound:?}.wav", std::process::id()))
    }

    /// Plays `sound` with the first of `players` that plays it, waiting
    /// until it has.
    pub fn play_with(players: &[&[&str]], sound: Sound) -> Result<(), SoundError> {
        let path = file(sound);
        if !path.exists() {
            std::fs::write(&path, wav(sound)).map_err(|source| SoundError::Write {
                path: path.clone(),
                source,
            })?;
        }
        for player in players {
            let Some((program, args)) = player.split_first() else {
                continue;
            };
            let played = Command::new(program)
                .args(args)
                .arg(&path)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
            if played.is_ok_and(|status| status.success()) {
                return Ok(());
            }
        }
        Err(SoundError::NoPlayer {
            tried: players
                .iter()
                .filter_map(|p| p.first())
                .copied()
                .collect::<Vec<_>>()
                .join(", "),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_sound_is_short_audible_and_within_range() {
        for sound in [Sound::Place, Sound::YourTurn, Sound::GameOver] {
            let samples = samples(sound);
            let seconds = samples.len() as f32 / SAMPLE_RATE as f32;
            assert!((0.03..=1.0).contains(&seconds), "{sound:?}: {seconds} s");
            let peak = samples.iter().fold(0f32, |m, s| m.max(s.abs()));
            assert!((0.1..=0.6).contains(&peak), "{sound:?}: peak {peak}");
            // It fades out instead of ending on a click.
            let tail = samples[samples.len() - 20..]
                .iter()
                .fold(0f32, |m, s| m.max(s.abs()));
            assert!(tail < peak / 4.0, "{sound:?}: tail {tail} of {peak}");
        }
        assert_ne!(samples(Sound::YourTurn), samples(Sound::GameOver));
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn the_wav_file_holds_the_samples_and_a_player_receives_it() {
        let bytes = wav(Sound::YourTurn);
        let reader = hound::WavReader::new(std::io::Cursor::new(&bytes)).unwrap();
        assert_eq!(reader.spec().sample_rate, SAMPLE_RATE);
        assert_eq!(reader.len() as usize, samples(Sound::YourTurn).len());
        // A "player" that copies the file it is given shows what the
        // program hands to the system's player; the first one that fails
        // is skipped.
        let dir = std::env::temp_dir().join(format!("reversi-sound-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let copy = dir.join("played.wav");
        let copy_str = copy.to_str().unwrap().to_string();
        let script = format!("cp \"$0\" {copy_str}");
        let players: &[&[&str]] = &[&["false"], &["sh", "-c", &script]];
        native::play_with(players, Sound::GameOver).unwrap();
        assert_eq!(std::fs::read(&copy).unwrap(), wav(Sound::GameOver));
        let none: &[&[&str]] = &[&["reversi-no-such-player"]];
        let refused = native::play_with(none, Sound::Place).unwrap_err();
        assert!(refused.to_string().contains("reversi-no-such-player"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
