//! What a leaderboard or a spectator takes from strangers: a membership
//! statement, a watch code, and a submitted log rated. Nothing may panic;
//! a statement that decodes re-encodes to one that decodes the same.

#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi::match_log::audit::audit_log_bytes;
use reversi::membership::Statement;
use reversi::net::watch::WatchCode;
use reversi::ratings::Ledger;

fuzz_target!(|data: &[u8]| {
    if let Ok(statement) = Statement::from_json(data) {
        let again = Statement::from_json(statement.to_json().to_string().as_bytes())
            .expect("a statement re-decodes");
        assert_eq!(again, statement);
    }
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(code) = text.parse::<WatchCode>() {
            assert_eq!(code.to_string().parse::<WatchCode>().as_ref(), Ok(&code));
        }
    }
    if let Ok((records, verifier)) = audit_log_bytes(data) {
        let mut ledger = Ledger::new();
        let _ = ledger.add(&records, &verifier);
        let _ = ledger.ratings();
    }
});
