//! What a player pastes or a link carries, on arbitrary input: room codes
//! and invite links, exported identities, and the peers' messages. Nothing
//! may panic; a code that reads reads back the same from its own text; a
//! message that decodes re-encodes to bytes that decode to it again.

#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi::identity_export;
use reversi::net::room_code::RoomCode;
use reversi::net::wire::WireMessage;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(code) = text.parse::<RoomCode>() {
            let again: RoomCode = code
                .full()
                .parse()
                .expect("a code reads back from its own text");
            assert_eq!(again, code);
            assert_eq!(again.room(), code.room());
        }
        // Refused before any key derivation unless the header is well formed
        // and asks no more than the bounded cost.
        let _ = identity_export::open(text, "a passphrase of some length");
    }
    if let Ok(message) = WireMessage::decode(data) {
        assert_eq!(WireMessage::decode(&message.encode()), Ok(message));
    }
});
