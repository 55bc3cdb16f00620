//! The self-play data file `eval_data` writes and `train_patterns` and
//! `probcut_fit` read: `MAGIC`, then 20-byte records (the side to move's
//! discs, the other side's, both little-endian u64; the label as i16; its
//! source; a zero byte).

/// The file's first bytes.
#[allow(dead_code)]
pub const MAGIC: &[u8; 8] = b"RVEDATA1";
/// Bytes per position.
#[allow(dead_code)]
pub const RECORD: usize = 20;
/// The label source of a position solved exactly (not every tool reads
/// the sources, hence the `allow`s).
#[allow(dead_code)]
pub const EXACT: u8 = 0;
/// The label source of a position not yet labelled.
#[allow(dead_code)]
pub const UNLABELLED: u8 = 255;

/// A record's two bitboards: the side to move's discs and the other
/// side's (`record` is one `RECORD`-byte record).
#[allow(dead_code)]
pub fn record_sides(record: &[u8]) -> (u64, u64) {
    let word = |at: usize| {
        u64::from_le_bytes(
            record
                .get(at..at + 8)
                .and_then(|w| w.try_into().ok())
                .unwrap_or([0; 8]),
        )
    };
    (word(0), word(8))
}

/// Whether the `number`th game (1-based) of a WTHOR tournament file is in
/// the test set that no training may see: every tenth.
#[allow(dead_code)]
pub fn in_wthor_test_set(number: usize) -> bool {
    number.is_multiple_of(10)
}
