//! Any sequence of inbound messages, connects, disconnects, local actions
//! and clock jumps leaves the session sound (see
//! `reversi::net::session_check`).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    reversi::net::session_check::check_inputs(data);
});
