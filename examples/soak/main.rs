//! A chaos soak: games between two separate `reversi` programs through a
//! real signaling server, on a small simulated network, with faults from a
//! seeded schedule. Needs root (network namespaces) and iptables.
//!
//! ```sh
//! cargo build --release --workspace --bins --examples
//! sudo target/release/examples/soak --games 200 [--seed 1] [--max-level 10] [--max-down 180] [--parallel N]
//! ```
//!
//! The network: the host's program in one namespace, the guest's in
//! another, each linked to a third that routes between them and runs
//! `reversi-signaling`. Every packet through that router (WebRTC and the
//! signaling websockets alike) passes a queue served by this program
//! (`soak impair`, run inside the router): it delays each packet, adds
//! jitter (which reorders), drops a share, and reorders some more, as the
//! kernel's netem would (this machine's kernel has no netem). Meanwhile two
//! `reversi perft` processes keep both cores busy.
//!
//! Each game gets its own conditions: 5–20 % loss, 100–300 ms delay with
//! up to 50 ms jitter, up to 10 % extra reordering (one game in four runs
//! on a clean link), bots of levels 1–10 on both sides, and one fault at a
//! random move: a side's link down for 3 s, 30 s or 3 min, SIGKILL of one
//! side followed by `reversi resume`, or the signaling server killed and
//! started again. For each fault, the time from its end to the next move
//! that both logs hold is measured.
//!
//! It prints, per game and at the end: games completed, logs identical
//! byte for byte, audits clean, evidence files written, and the recovery
//! times (p50, p99, max). It exits 1 if a game was lost or diverged.

#[cfg(target_os = "linux")]
mod run;

#[cfg(target_os = "linux")]
fn main() -> std::process::ExitCode {
    run::main()
}

#[cfg(not(target_os = "linux"))]
fn main() {
    eprintln!("the soak needs Linux: network namespaces and netfilter queues");
}
