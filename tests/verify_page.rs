//! `reversi verify-page`: a page served by a real `reversi-signaling`
//! compared file by file with a local build, and a server that serves a
//! changed bundle caught.

mod support;

use std::path::Path;
use std::process::{Output, Stdio};

use reversi_signaling::web_assets::{CHECKSUMS, bundle_sha256, checksums};
use support::signaling_server::Server;
use support::{TempDir, free_port};

/// A bundle as `web/build.sh` lays it out: the page, its script, its
/// module, the worker and their checksum list (`wasm` stands in for the
/// module's bytes).
fn write_bundle(dir: &Path, wasm: &[u8]) {
    std::fs::create_dir_all(dir).unwrap();
    let files: [(&str, &[u8]); 4] = [
        ("index.html", b"<!DOCTYPE html><title>Reversi</title>"),
        ("reversi.js", b"export default async function init() {}"),
        ("reversi_bg.wasm", wasm),
        ("worker.js", b"import init from './reversi.js';"),
    ];
    for (name, bytes) in files {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    std::fs::write(dir.join(CHECKSUMS), checksums(files)).unwrap();
}

fn verify_page(args: &[&str]) -> Output {
    support::reversi()
        .arg("verify-page")
        .args(args)
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A server that serves `web_dir` as the page, its standard error kept.
fn serving(dir: &TempDir, name: &str, web_dir: &Path) -> (Server, std::path::PathBuf) {
    let stderr = dir.0.join(format!("{name}.stderr"));
    let file = std::fs::File::create(&stderr).unwrap();
    let db = dir.0.join(format!("{name}.db"));
    let server = Server::start_with(
        free_port(),
        db.to_str().unwrap(),
        &["--web-dir", web_dir.to_str().unwrap()],
        Stdio::from(file),
    );
    (server, stderr)
}

#[test]
fn a_served_page_is_compared_file_by_file_and_a_changed_bundle_is_named() {
    let dir = TempDir::new("verify-page");
    let built = dir.0.join("built");
    write_bundle(&built, b"\0asm module bytes");
    let name = bundle_sha256(&std::fs::read_to_string(built.join(CHECKSUMS)).unwrap());

    // The honest server: the same bytes, named the same at its start.
    let same = dir.0.join("same");
    write_bundle(&same, b"\0asm module bytes");
    let (honest, honest_stderr) = serving(&dir, "honest", &same);
    let page = format!("http://127.0.0.1:{}/play/", honest.port);
    let output = verify_page(&[&page, "--dist", built.to_str().unwrap()]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains(&format!("is this build: bundle sha256 {name}")),
        "{stdout}"
    );
    assert_eq!(stdout.matches(" same ").count(), 4, "{stdout}");
    let started = std::fs::read_to_string(&honest_stderr).unwrap();
    assert!(
        started.contains(&format!("bundle sha256 {name}")),
        "the server names the bundle at start: {started}"
    );
    // An invite link names the page too; its fragment stays here.
    let link = format!("{page}#K7QF-M2XA-PZ4R-TB6H-ANNK-C&autojoin");
    assert!(
        verify_page(&[&link, "--dist", built.to_str().unwrap()])
            .status
            .success()
    );

    // A server that serves another module, with a checksum list to match.
    let changed = dir.0.join("changed");
    write_bundle(&changed, b"\0asm module bytes, changed");
    let (hostile, _) = serving(&dir, "hostile", &changed);
    let page = format!("http://127.0.0.1:{}/play/", hostile.port);
    let output = verify_page(&[&page, "--dist", built.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("reversi_bg.wasm  DIFFERS"),
        "the changed file is named: {stderr}"
    );
    assert!(stderr.contains("index.html       same"), "{stderr}");
    assert!(stderr.contains("NOT this build"), "{stderr}");
    assert!(stderr.contains("do not enter anything into it"), "{stderr}");

    // A page without the bundle's files, and a folder that is no bundle.
    let output = verify_page(&[
        &format!("http://127.0.0.1:{}/elsewhere/", hostile.port),
        "--dist",
        built.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("MISSING"),
        "{}",
        text(&output.stderr)
    );
    let output = verify_page(&[&page, "--dist", dir.0.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stderr).contains("has no index.html"));
}
