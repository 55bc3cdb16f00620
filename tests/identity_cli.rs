//! `reversi identity`: a key carried from one data directory to another
//! under a passphrase, and a key file others can read refused.

#![cfg(unix)]

mod support;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Output, Stdio};

use support::TempDir;

fn reversi(data: &Path, args: &[&str]) -> Output {
    support::reversi()
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn ok(data: &Path, args: &[&str]) -> String {
    let out = reversi(data, args);
    assert!(
        out.status.success(),
        "reversi {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn err(data: &Path, args: &[&str]) -> String {
    let out = reversi(data, args);
    assert!(!out.status.success(), "reversi {args:?} should fail");
    String::from_utf8(out.stderr).unwrap()
}

/// `reversi identity export FILE --passphrase-file PASS` in `data`.
fn export(data: &Path, file: &Path, pass: &Path) -> Output {
    reversi(
        data,
        &[
            "identity",
            "export",
            file.to_str().unwrap(),
            "--passphrase-file",
            pass.to_str().unwrap(),
        ],
    )
}

/// `reversi identity import FILE --passphrase-file PASS [--replace]` in `data`.
fn import(data: &Path, file: &Path, pass: &Path, replace: bool) -> Output {
    let mut args = vec![
        "identity",
        "import",
        file.to_str().unwrap(),
        "--passphrase-file",
        pass.to_str().unwrap(),
    ];
    if replace {
        args.push("--replace");
    }
    reversi(data, &args)
}

fn succeeded(out: Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn failed(out: Output) -> String {
    assert!(
        !out.status.success(),
        "should fail: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn an_identity_exported_under_a_passphrase_is_the_same_identity_elsewhere() {
    let dir = TempDir::new("identity-export");
    let (desk, laptop) = (dir.path("desk"), dir.path("laptop"));
    let fingerprint = ok(&desk, &["identity"]);
    let secret = dir.path("passphrase");
    std::fs::write(&secret, "a long passphrase here\n").unwrap();
    let file = dir.path("me.identity");
    let said = succeeded(export(&desk, &file, &secret));
    assert!(said.contains(fingerprint.trim()), "{said}");
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "the export is its owner's alone");
    let text = std::fs::read_to_string(&file).unwrap();
    let key = std::fs::read_to_string(desk.join("identity.key")).unwrap();
    assert!(
        !text.contains(key.trim()),
        "the secret is not in the file in clear"
    );
    // A wrong passphrase changes nothing.
    let wrong = dir.path("wrong");
    std::fs::write(&wrong, "not the passphrase at all\n").unwrap();
    let said = failed(import(&laptop, &file, &wrong, false));
    assert!(said.contains("wrong passphrase"), "{said}");
    assert!(!laptop.join("identity.key").exists());
    // The right one makes the laptop play as the desk.
    succeeded(import(&laptop, &file, &secret, false));
    assert_eq!(ok(&laptop, &["identity"]), fingerprint);
    // Exporting over an existing file is refused.
    let said = failed(export(&desk, &file, &secret));
    assert!(said.contains("exists"), "{said}");
}

#[test]
fn importing_over_another_identity_needs_replace_and_keeps_the_old_key() {
    let dir = TempDir::new("identity-replace");
    let (a, b) = (dir.path("a"), dir.path("b"));
    let secret = dir.path("passphrase");
    std::fs::write(&secret, "another long passphrase\n").unwrap();
    let file = dir.path("a.identity");
    succeeded(export(&a, &file, &secret));
    let b_before = ok(&b, &["identity"]);
    let said = failed(import(&b, &file, &secret, false));
    assert!(said.contains("--replace"), "{said}");
    assert_eq!(ok(&b, &["identity"]), b_before);
    let said = succeeded(import(&b, &file, &secret, true));
    assert!(said.contains("previous key is kept"), "{said}");
    assert_eq!(ok(&b, &["identity"]), ok(&a, &["identity"]));
    let kept = std::fs::read_dir(&b)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("identity.key.")
        })
        .count();
    assert_eq!(kept, 1);
}

#[test]
fn a_key_file_others_can_read_is_refused_and_left_alone() {
    let dir = TempDir::new("identity-exposed");
    let data = dir.path("data");
    ok(&data, &["identity"]);
    let key = data.join("identity.key");
    let before = std::fs::read(&key).unwrap();
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
    let said = err(&data, &["identity"]);
    assert!(
        said.contains("can be read by other users (mode 644)"),
        "{said}"
    );
    assert!(said.contains("chmod 600"), "{said}");
    assert_eq!(
        std::fs::read(&key).unwrap(),
        before,
        "the key file is untouched"
    );
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).unwrap();
    ok(&data, &["identity"]);
}
