//! Decode-and-verify on arbitrary input: as one record's bytes, as a batch
//! of records (the mailbox's batched post), and as a log file. Nothing may
//! panic; a record or a batch that decodes must re-encode to exactly the
//! same bytes; a log that verifies must verify again after a round trip
//! through its own file format.

#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi::match_log::Record;
use reversi::match_log::audit::audit_log_bytes;
use reversi::match_log::log_file::record_line;
use reversi::match_log::record::{decode_batch, encode_batch};

fuzz_target!(|data: &[u8]| {
    if let Ok(record) = Record::decode(data) {
        assert_eq!(record.to_bytes(), data, "decoded records are canonical");
    }
    if let Ok(records) = decode_batch(data, 48) {
        assert!(records.len() <= 48);
        assert_eq!(
            encode_batch(&records),
            data,
            "decoded batches are canonical"
        );
    }
    if let Ok((records, verifier)) = audit_log_bytes(data) {
        let text: String = records.iter().map(record_line).collect();
        let (again, reverified) =
            audit_log_bytes(text.as_bytes()).expect("a verified log re-verifies");
        assert_eq!(again, records);
        assert_eq!(reverified.record_count(), verifier.record_count());
    }
});
