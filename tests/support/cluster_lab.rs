//! Several `reversi-signaling` instances behind a real proxy, sharing one
//! PostgreSQL, in a network namespace of their own:
//!
//! ```text
//! players (this namespace) 10.231.T.2 ── veth ── 10.231.T.1 servers namespace:
//!                                                  proxy :80 (deploy/nginx.conf or deploy/haproxy.cfg)
//!                                                  instances 127.0.0.1:3541, :3542, :3543
//!                                                  PostgreSQL on loopback
//! ```
//!
//! The proxy runs the shipped configuration file unchanged (its fixed
//! ports are free in a fresh namespace). The players' programs run here
//! and reach the proxy over the veth link, so WebRTC has a real interface
//! to use. Everything is stopped and removed when the lab is dropped.
//! Needs root; [`why_not`] says why a lab cannot be made.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::nat_lab::{run, why_not_with};
use super::postgres::Postgres;
use super::signaling_server::request_to;

/// The instances' ports, as the shipped proxy configurations name them.
pub const PORTS: [u16; 3] = [3541, 3542, 3543];

/// Which proxy fronts the instances.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proxy {
    /// nginx with `deploy/nginx.conf`.
    Nginx,
    /// HAProxy with `deploy/haproxy.cfg`.
    Haproxy,
}

/// A child process stopped when dropped: SIGTERM, so that nginx's master
/// takes its workers along (SIGKILL would leave them running), then
/// SIGKILL if it has not stopped within a few seconds.
struct Process(Child);

impl Process {
    fn terminate(&mut self) {
        if let Ok(None) = self.0.try_wait() {
            let _ = run("kill", &["-TERM", &self.0.id().to_string()]);
            let asked = Instant::now();
            while matches!(self.0.try_wait(), Ok(None)) && asked.elapsed() < Duration::from_secs(5)
            {
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.terminate();
    }
}

/// Why no lab can be made here, or `None` when one can.
pub fn why_not() -> Option<String> {
    why_not_with(&[("nginx", "nginx"), ("haproxy", "haproxy")])
}

/// The network namespace and its link, removed when dropped.
struct Namespace {
    name: String,
    link: String,
}

impl Drop for Namespace {
    fn drop(&mut self) {
        let _ = run("ip", &["link", "del", &self.link]);
        let _ = run("ip", &["netns", "del", &self.name]);
    }
}

/// The lab. Its fields drop in order: the proxy and the instances first,
/// then PostgreSQL, then the namespace.
pub struct Cluster {
    proxy: Option<Process>,
    instances: Vec<Option<Process>>,
    postgres: Postgres,
    namespace: Namespace,
    subnet: u8,
    dir: PathBuf,
    signaling: PathBuf,
    deploy: PathBuf,
    /// More arguments for every instance.
    extra: Vec<String>,
}

impl Cluster {
    /// Builds the namespace, starts PostgreSQL, the three instances and
    /// `proxy`; `subnet` (1–250) keeps labs apart, `dir` takes their logs.
    pub fn build(subnet: u8, proxy: Proxy, dir: &Path, signaling: &Path) -> Cluster {
        Cluster::build_with(subnet, proxy, dir, signaling, &[])
    }

    /// The same, with more arguments for every instance (a benchmark's
    /// higher limits).
    pub fn build_with(
        subnet: u8,
        proxy: Proxy,
        dir: &Path,
        signaling: &Path,
        extra: &[&str],
    ) -> Cluster {
        let name = format!("rcl{subnet}-srv");
        let link = format!("rcl{subnet}-p");
        let _ = run("ip", &["link", "del", &link]);
        let _ = run("ip", &["netns", "del", &name]);
        run("ip", &["netns", "add", &name]).unwrap();
        let namespace = Namespace {
            name: name.clone(),
            link: link.clone(),
        };
        let inside = format!("rcl{subnet}-s");
        let here = format!("10.231.{subnet}.2/24");
        let there = format!("10.231.{subnet}.1/24");
        for step in [
            vec![
                "link", "add", &link, "type", "veth", "peer", "name", &inside,
            ],
            vec!["link", "set", &inside, "netns", &name],
            vec!["addr", "add", &here, "dev", &link],
            vec!["link", "set", &link, "up"],
        ] {
            run("ip", &step).unwrap();
        }
        for step in [
            vec!["addr", "add", &there, "dev", &inside],
            vec!["link", "set", &inside, "up"],
            vec!["link", "set", "lo", "up"],
        ] {
            let mut args = vec!["-n", &name];
            args.extend(step);
            run("ip", &args).unwrap();
        }
        let postgres = Postgres::start_in(&format!("cluster-{subnet}-db"), Some(&name));
        let mut cluster = Cluster {
            proxy: None,
            instances: PORTS.iter().map(|_| None).collect(),
            postgres,
            namespace,
            subnet,
            dir: dir.to_path_buf(),
            signaling: signaling.to_path_buf(),
            deploy: Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy"),
            extra: extra.iter().map(|a| a.to_string()).collect(),
        };
        for i in 0..PORTS.len() {
            cluster.start(i);
        }
        for i in 0..PORTS.len() {
            cluster.until_ready(i, Duration::from_secs(30));
        }
        cluster.start_proxy(proxy);
        cluster
    }

    fn in_namespace(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut command = Command::new("ip");
        command
            .args(["netns", "exec", &self.namespace.name])
            .arg(program);
        command
    }

    fn log(&self, name: &str) -> std::fs::File {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.join(name))
            .unwrap()
    }

    fn start_proxy(&mut self, proxy: Proxy) {
        let child = match proxy {
            Proxy::Nginx => {
                // The shipped file goes inside `http { }`, as an operator
                // includes it; this wrapper holds only what a test needs.
                let prefix = self.dir.join("nginx");
                std::fs::create_dir_all(&prefix).unwrap();
                let main = prefix.join("nginx.conf");
                std::fs::write(
                    &main,
                    format!(
                        "daemon off;\npid {p}/nginx.pid;\nerror_log {p}/error.log info;\n\
                         worker_rlimit_nofile 20000;\nevents {{ worker_connections 10000; }}\n\
                         http {{\n  access_log {p}/access.log;\n  client_body_temp_path {p}/body;\n  \
                         proxy_temp_path {p}/proxy;\n  include {conf};\n}}\n",
                        p = prefix.display(),
                        conf = self.deploy.join("nginx.conf").display()
                    ),
                )
                .unwrap();
                self.in_namespace("nginx")
                    .arg("-c")
                    .arg(&main)
                    .arg("-p")
                    .arg(&prefix)
                    .stdout(Stdio::null())
                    .stderr(self.log("nginx.stderr"))
                    .spawn()
                    .unwrap()
            }
            Proxy::Haproxy => self
                .in_namespace("haproxy")
                .arg("-db")
                .arg("-f")
                .arg(self.deploy.join("haproxy.cfg"))
                .stdout(self.log("haproxy.log"))
                .stderr(self.log("haproxy.log"))
                .spawn()
                .unwrap(),
        };
        self.proxy = Some(Process(child));
        let started = Instant::now();
        while self.get("/health").is_none_or(|(status, _)| status != 200) {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "the proxy answers"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Starts instance `i` (again).
    pub fn start(&mut self, i: usize) {
        let child = self
            .in_namespace(&self.signaling)
            // Every address: the proxy's upstreams name loopback, and a
            // benchmark also reaches an instance directly over the link.
            .args(["--bind", &format!("0.0.0.0:{}", PORTS[i])])
            .args(["--db", &self.postgres.url()])
            .args(["--trusted-proxy", "127.0.0.1"])
            .args(&self.extra)
            // Its log goes to stdout; errors before logging starts to stderr.
            .stdout(self.log(&format!("instance-{i}.log")))
            .stderr(self.log(&format!("instance-{i}.log")))
            .spawn()
            .unwrap();
        self.instances[i] = Some(Process(child));
    }

    /// SIGKILL to instance `i`: a crash.
    pub fn kill(&mut self, i: usize) {
        if let Some(mut process) = self.instances[i].take() {
            let _ = process.0.kill();
            let _ = process.0.wait();
        }
    }

    /// SIGTERM to instance `i`, and waits for it to stop.
    pub fn stop(&mut self, i: usize) {
        if let Some(mut process) = self.instances[i].take() {
            process.terminate();
        }
    }

    /// Waits until instance `i` answers `/ready` with 200.
    pub fn until_ready(&self, i: usize, within: Duration) -> Duration {
        let started = Instant::now();
        loop {
            let answer = self.instance(i, "/ready");
            if answer.as_ref().is_some_and(|(status, _)| *status == 200) {
                return started.elapsed();
            }
            if started.elapsed() >= within {
                panic!(
                    "instance {i} is not ready after {within:?}: its last answer to /ready {answer:?}; the end of its log:\n{}",
                    super::file_tail(&self.dir.join(format!("instance-{i}.log")), 15)
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Status and body of `GET path` on instance `i` (reached past the
    /// proxy), or `None` if it does not answer.
    pub fn instance(&self, i: usize, path: &str) -> Option<(u16, String)> {
        request_to(self.instance_address(i), "GET", path, &[])
    }

    /// Rooms open on instance `i` (0 when it does not answer).
    pub fn rooms(&self, i: usize) -> u64 {
        self.instance(i, "/health")
            .and_then(|(_, body)| serde_json::from_str::<serde_json::Value>(&body).ok())
            .and_then(|health| health["rooms"].as_u64())
            .unwrap_or(0)
    }

    /// The proxy's address as the players reach it.
    pub fn url(&self) -> String {
        format!("ws://10.231.{}.1", self.subnet)
    }

    /// The proxy's socket address, from here.
    pub fn proxy_address(&self) -> std::net::SocketAddr {
        ([10, 231, self.subnet, 1], 80).into()
    }

    /// Instance `i`'s socket address, from here (past the proxy).
    pub fn instance_address(&self, i: usize) -> std::net::SocketAddr {
        ([10, 231, self.subnet, 1], PORTS[i]).into()
    }

    /// Status and body of `GET path` through the proxy.
    pub fn get(&self, path: &str) -> Option<(u16, String)> {
        request_to(self.proxy_address(), "GET", path, &[])
    }

    /// The shared database.
    pub fn postgres(&self) -> &Postgres {
        &self.postgres
    }
}
