//! Builds the browser bundle into the native program when `web/dist`
//! holds one (`web/build.sh` makes it), so the desktop's embedded server
//! serves the page too and a friend on the LAN needs only a browser.
//! Without a bundle (or for the browser build itself) nothing is embedded.

use std::path::Path;

fn main() {
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let native = std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() != Ok("wasm32");
    let dist = Path::new("web/dist");
    // build.sh writes SHA256SUMS last: a bundle is complete once it exists.
    let complete = dist.join("SHA256SUMS");
    let mut files = Vec::new();
    if !native {
        // The browser build embeds nothing: it must not rebuild whenever
        // web/ changes (build.sh empties web/dist before it builds).
        println!("cargo::rerun-if-changed=build.rs");
    } else if complete.is_file() {
        println!("cargo::rerun-if-changed=web/dist/SHA256SUMS");
        if native {
            for entry in std::fs::read_dir(dist)
                .expect("web/dist is readable")
                .flatten()
            {
                let path = entry.path();
                let name = entry.file_name().to_string_lossy().into_owned();
                // SHA256SUMS too: the page's footer names the bundle by it.
                if path.is_file() {
                    let absolute = std::fs::canonicalize(&path).expect("the file exists");
                    files.push(format!("    ({name:?}, include_bytes!({absolute:?})),"));
                }
            }
        }
    } else {
        // Watches for the bundle to appear.
        println!("cargo::rerun-if-changed=web");
    }
    files.sort();
    let code = format!(
        "/// The browser bundle built in (name, bytes); empty without one.\npub const WEB_BUNDLE: &[(&str, &[u8])] = &[\n{}\n];\n",
        files.join("\n")
    );
    std::fs::write(Path::new(&out).join("web_bundle.rs"), code).expect("OUT_DIR is writable");
}
