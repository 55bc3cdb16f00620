//! A small simulated internet in network namespaces: a "public" network
//! holding `reversi-signaling` and a real TURN server (Debian's coturn),
//! and two homes, each behind its own Linux NAT router.
//!
//! ```text
//! home A 198.18.11.2 ─ router A (NAT) 198.19.1.2 ─┐
//!                                                  inet: 198.19.1.1 / 198.19.2.1
//! home B 198.18.12.2 ─ router B (NAT) 198.19.2.2 ─┘      signaling :3536, coturn :3478
//! ```
//!
//! The homes' own addresses are unreachable from each other (the public
//! network has no route to them), so a game connects only through
//! STUN-discovered addresses or the relay. Everything is removed when the
//! lab is dropped. Needs root; [`why_not`] says why a lab cannot be made.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The public address of the signaling server and the relay.
pub const PUBLIC: &str = "198.19.1.1";
/// The signaling server, as both homes reach it.
pub const SERVER: &str = "ws://198.19.1.1:3536";
/// The TURN server's URL.
pub const TURN: &str = "turn:198.19.1.1:3478?transport=udp";
/// The STUN server's URL (coturn answers binding requests too).
pub const STUN: &str = "stun:198.19.1.1:3478";
/// The secret shared by the signaling server and coturn.
pub const SECRET: &str = "nat-lab-secret";

/// How the routers translate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nat {
    /// Plain masquerade: one mapping per inside address and port,
    /// whatever the destination ("endpoint-independent").
    EndpointIndependent,
    /// A fresh random source port for every destination
    /// ("address-and-port-dependent", "symmetric").
    Symmetric,
}

/// A side of the lab.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Home {
    /// Home A (198.18.11.0/24).
    A,
    /// Home B (198.18.12.0/24).
    B,
}

/// A child process killed when dropped.
pub struct Process(pub Child);

impl Drop for Process {
    fn drop(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            let _ = self.0.kill();
        }
        let _ = self.0.wait();
    }
}

/// Runs a program to its end; its standard error when it fails.
pub fn run(program: &str, args: &[&str]) -> Result<(), String> {
    let out = Command::new(program)
        .args(args)
        .output()
        .map_err(|e| format!("{program}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{program} {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// Why no lab can be made here, or `None` when one can.
pub fn why_not() -> Option<String> {
    why_not_with(&[("iptables", "iptables"), ("turnserver", "coturn")])
}

/// Why no network namespace with these `(tool, Debian package)` can be
/// made here, or `None` when one can.
pub fn why_not_with(tools: &[(&str, &str)]) -> Option<String> {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    if !root {
        return Some("not root: network namespaces need root".into());
    }
    let probe = format!("rnat-probe-{}", std::process::id());
    if let Err(e) = run("ip", &["netns", "add", &probe]) {
        return Some(format!("cannot make a network namespace: {e}"));
    }
    let _ = run("ip", &["netns", "del", &probe]);
    for (tool, package) in tools {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .output()
            .is_ok_and(|o| o.status.success());
        if !found {
            return Some(format!(
                "{tool} is missing (Debian package {package}; tests/all.sh installs it)"
            ));
        }
    }
    None
}

/// The lab; torn down when dropped.
pub struct Lab {
    prefix: String,
    inet: String,
    router_a: String,
    router_b: String,
    home_a: String,
    home_b: String,
    processes: Vec<Process>,
    dir: PathBuf,
}

impl Lab {
    /// Builds the namespaces and the routers; `dir` receives the servers' logs.
    pub fn build(tag: &str, nat: Nat, dir: &Path) -> Result<Lab, String> {
        let prefix = format!("rn{tag}");
        let lab = Lab {
            inet: format!("{prefix}-inet"),
            router_a: format!("{prefix}-ra"),
            router_b: format!("{prefix}-rb"),
            home_a: format!("{prefix}-a"),
            home_b: format!("{prefix}-b"),
            prefix,
            processes: Vec::new(),
            dir: dir.to_path_buf(),
        };
        // Left over from a run that was killed.
        for ns in lab.namespaces() {
            let _ = run("ip", &["netns", "del", ns]);
        }
        for ns in lab.namespaces() {
            run("ip", &["netns", "add", ns])?;
            run("ip", &["-n", ns, "link", "set", "lo", "up"])?;
        }
        // Like any host on the internet, the public network has a default
        // route: packets for the homes' private addresses vanish on it
        // instead of failing at once. (Without one, coturn's first relayed
        // packet to a private host candidate fails with ENETUNREACH and
        // coturn then relays nothing more from that allocation.)
        // (A veth pair whose far end answers no neighbour discovery: the
        // kernel has no dummy interfaces here.)
        run(
            "ip",
            &[
                "-n", &lab.inet, "link", "add", "void", "type", "veth", "peer", "name", "void2",
            ],
        )?;
        for dev in ["void", "void2"] {
            run("ip", &["-n", &lab.inet, "link", "set", dev, "up"])?;
        }
        run(
            "ip",
            &["-n", &lab.inet, "route", "add", "default", "dev", "void"],
        )?;
        // The public network routes between the routers, as the internet does.
        run(
            "ip",
            &[
                "netns",
                "exec",
                &lab.inet,
                "sysctl",
                "-qw",
                "net.ipv4.ip_forward=1",
            ],
        )?;
        for (n, router, home) in [
            (1, &lab.router_a, &lab.home_a),
            (2, &lab.router_b, &lab.home_b),
        ] {
            // inet <-> router
            let (inet_dev, wan_dev) =
                (format!("{}i{n}", lab.prefix), format!("{}w{n}", lab.prefix));
            lab.veth(&inet_dev, &lab.inet, &wan_dev, router)?;
            run(
                "ip",
                &[
                    "-n",
                    &lab.inet,
                    "addr",
                    "add",
                    &format!("198.19.{n}.1/24"),
                    "dev",
                    &inet_dev,
                ],
            )?;
            run(
                "ip",
                &[
                    "-n",
                    router,
                    "addr",
                    "add",
                    &format!("198.19.{n}.2/24"),
                    "dev",
                    &wan_dev,
                ],
            )?;
            run(
                "ip",
                &[
                    "-n",
                    router,
                    "route",
                    "add",
                    "default",
                    "via",
                    &format!("198.19.{n}.1"),
                ],
            )?;
            // router <-> home
            let (lan_dev, home_dev) =
                (format!("{}l{n}", lab.prefix), format!("{}h{n}", lab.prefix));
            lab.veth(&lan_dev, router, &home_dev, home)?;
            run(
                "ip",
                &[
                    "-n",
                    router,
                    "addr",
                    "add",
                    &format!("198.18.1{n}.1/24"),
                    "dev",
                    &lan_dev,
                ],
            )?;
            run(
                "ip",
                &[
                    "-n",
                    home,
                    "addr",
                    "add",
                    &format!("198.18.1{n}.2/24"),
                    "dev",
                    &home_dev,
                ],
            )?;
            run(
                "ip",
                &[
                    "-n",
                    home,
                    "route",
                    "add",
                    "default",
                    "via",
                    &format!("198.18.1{n}.1"),
                ],
            )?;
            run(
                "ip",
                &[
                    "netns",
                    "exec",
                    router,
                    "sysctl",
                    "-qw",
                    "net.ipv4.ip_forward=1",
                ],
            )?;
            let mut masquerade = vec![
                "netns",
                "exec",
                router,
                "iptables",
                "-t",
                "nat",
                "-A",
                "POSTROUTING",
                "-o",
                &wan_dev,
                "-j",
                "MASQUERADE",
            ];
            if nat == Nat::Symmetric {
                masquerade.push("--random-fully");
            }
            run("ip", &masquerade)?;
            // Only replies come in, to the homes or the router itself: a
            // home router's stateful firewall. (Dropping unsolicited packets
            // to the router matters: accepted, each would leave a
            // connection-table entry that makes the NAT pick another port
            // for the home's own packet to the same peer a moment later.)
            for chain in ["FORWARD", "INPUT"] {
                run(
                    "ip",
                    &[
                        "netns",
                        "exec",
                        router,
                        "iptables",
                        "-A",
                        chain,
                        "-i",
                        &wan_dev,
                        "-m",
                        "conntrack",
                        "--ctstate",
                        "ESTABLISHED,RELATED",
                        "-j",
                        "ACCEPT",
                    ],
                )?;
                run(
                    "ip",
                    &[
                        "netns", "exec", router, "iptables", "-A", chain, "-i", &wan_dev, "-j",
                        "DROP",
                    ],
                )?;
            }
        }
        Ok(lab)
    }

    fn namespaces(&self) -> [&String; 5] {
        [
            &self.inet,
            &self.router_a,
            &self.router_b,
            &self.home_a,
            &self.home_b,
        ]
    }

    fn veth(&self, a: &str, ns_a: &str, b: &str, ns_b: &str) -> Result<(), String> {
        run("ip", &["link", "add", a, "type", "veth", "peer", "name", b])?;
        run("ip", &["link", "set", a, "netns", ns_a])?;
        run("ip", &["link", "set", b, "netns", ns_b])?;
        run("ip", &["-n", ns_a, "link", "set", a, "up"])?;
        run("ip", &["-n", ns_b, "link", "set", b, "up"])
    }

    /// A command run inside a home.
    pub fn in_home(&self, home: Home, program: &Path) -> Command {
        let ns = match home {
            Home::A => &self.home_a,
            Home::B => &self.home_b,
        };
        let mut command = Command::new("ip");
        command.args(["netns", "exec", ns]).arg(program);
        command
    }

    /// Starts the signaling server (handing out the lab's STUN and TURN)
    /// and coturn on the public network, and waits until both answer.
    pub fn start_servers(&mut self, signaling: &Path) -> Result<(), String> {
        let log = |name: &str| {
            std::fs::File::create(self.dir.join(name)).map_err(|e| format!("{name}: {e}"))
        };
        // The operator's shipped configuration, with what is the lab's own
        // given on the command line (which takes precedence over the file).
        let config = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/turnserver.conf");
        let turn = Command::new("ip")
            .args(["netns", "exec", &self.inet, "turnserver", "-c"])
            .arg(&config)
            .args([
                &format!("--listening-ip={PUBLIC}"),
                &format!("--relay-ip={PUBLIC}"),
                &format!("--static-auth-secret={SECRET}"),
                "--realm=reversi.test",
                "--no-tls",
                "--no-dtls",
                "--no-software-attribute",
                "--verbose",
                &format!("--pidfile={}", self.dir.join("turnserver.pid").display()),
            ])
            .stdout(log("turnserver.log")?)
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("turnserver: {e}"))?;
        self.processes.push(Process(turn));
        let server = Command::new("ip")
            .args(["netns", "exec", &self.inet])
            .arg(signaling)
            .args([
                "--bind",
                "0.0.0.0:3536",
                "--db",
                ":memory:",
                "--stun",
                STUN,
                "--turn",
                TURN,
            ])
            .args(["--turn-secret", SECRET])
            .stdout(Stdio::null())
            .stderr(log("signaling.log")?)
            .spawn()
            .map_err(|e| format!("reversi-signaling: {e}"))?;
        self.processes.push(Process(server));
        let started = Instant::now();
        loop {
            let listening = Command::new("ip")
                .args([
                    "netns", "exec", &self.inet, "ss", "-Hlnu", "sport", "=", ":3478",
                ])
                .output()
                .is_ok_and(|o| !o.stdout.is_empty());
            let signaling_up = Command::new("ip")
                .args([
                    "netns", "exec", &self.inet, "ss", "-Hlnt", "sport", "=", ":3536",
                ])
                .output()
                .is_ok_and(|o| !o.stdout.is_empty());
            if listening && signaling_up {
                return Ok(());
            }
            if started.elapsed() > Duration::from_secs(10) {
                return Err(
                    "the servers did not start within 10 s (see turnserver.log, signaling.log)"
                        .into(),
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Makes the TURN server unreachable (its UDP and TCP ports dropped).
    pub fn block_turn(&self) -> Result<(), String> {
        for proto in ["udp", "tcp"] {
            run(
                "ip",
                &[
                    "netns", "exec", &self.inet, "iptables", "-A", "INPUT", "-p", proto, "--dport",
                    "3478", "-j", "DROP",
                ],
            )?;
        }
        Ok(())
    }

    /// Restarts home A's router the way a cheap one does: it comes back
    /// with a new public address (198.19.1.3, then .4, …) and no memory of
    /// its mappings, so every connection through it breaks.
    pub fn restart_router_a(&self, generation: u8) -> Result<(), String> {
        let wan = format!("{}w1", self.prefix);
        let router = &self.router_a;
        let old = format!("198.19.1.{}/24", 2 + generation);
        let new = format!("198.19.1.{}/24", 3 + generation);
        run("ip", &["-n", router, "link", "set", &wan, "down"])?;
        run("ip", &["-n", router, "addr", "del", &old, "dev", &wan])?;
        // Removing the address drops its masquerade mappings; flush the
        // rest of the connection table as a reboot would.
        let _ = run("ip", &["netns", "exec", router, "conntrack", "-F"]);
        std::thread::sleep(Duration::from_secs(2));
        run("ip", &["-n", router, "addr", "add", &new, "dev", &wan])?;
        run("ip", &["-n", router, "link", "set", &wan, "up"])?;
        run(
            "ip",
            &[
                "-n",
                router,
                "route",
                "replace",
                "default",
                "via",
                "198.19.1.1",
            ],
        )
    }
}

impl Drop for Lab {
    fn drop(&mut self) {
        self.processes.clear();
        for ns in self.namespaces() {
            let _ = run("ip", &["netns", "del", ns]);
        }
    }
}
