//! The documentation's links stay true: every relative link in `README.md`,
//! `ARCHITECTURE.md` and the book (`docs/src/`) leads to a file that exists
//! (and to a heading there, when it names one), every page of the book is
//! in its `SUMMARY.md`, and every file path that `ARCHITECTURE.md` names in
//! backticks exists. `mdbook build docs` (in `.ci/run`) checks the
//! summary's own entries; these are the links it does not check.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn book_pages() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in fs::read_dir(dir).expect("docs/src is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    let mut pages = Vec::new();
    walk(&root().join("docs/src"), &mut pages);
    pages.sort();
    pages
}

/// The targets of the inline links `[text](target)` outside code.
fn link_targets(markdown: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut in_fence = false;
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let mut rest = line;
        while let Some(start) = rest.find("](") {
            let after = &rest[start + 2..];
            let Some(end) = after.find(')') else { break };
            targets.push(after[..end].to_string());
            rest = &after[end..];
        }
    }
    targets
}

/// A heading's anchor as mdBook and GitHub make it: lower case, spaces to
/// hyphens, other punctuation dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors(markdown: &str) -> BTreeSet<String> {
    let mut in_fence = false;
    let mut found = BTreeSet::new();
    for line in markdown.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        } else if !in_fence && line.starts_with('#') {
            found.insert(anchor(line.trim_start_matches('#')));
        }
    }
    found
}

fn broken_links(file: &Path) -> Vec<String> {
    let text = fs::read_to_string(file).expect("a documentation file is readable");
    let dir = file.parent().expect("a file has a folder");
    let mut broken = Vec::new();
    for target in link_targets(&text) {
        if target.contains("://") || target.starts_with("mailto:") {
            continue;
        }
        let (path, fragment) = match target.split_once('#') {
            Some((path, fragment)) => (path, Some(fragment)),
            None => (target.as_str(), None),
        };
        let resolved = if path.is_empty() {
            file.to_path_buf()
        } else {
            dir.join(path)
        };
        if !resolved.exists() {
            broken.push(format!("{}: {target} (no such file)", file.display()));
            continue;
        }
        if let Some(fragment) = fragment {
            let page = fs::read_to_string(&resolved).unwrap_or_default();
            if !anchors(&page).contains(fragment) {
                broken.push(format!("{}: {target} (no such heading)", file.display()));
            }
        }
    }
    broken
}

#[test]
fn every_relative_link_leads_to_a_file_and_heading() {
    let mut files = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    files.extend(book_pages());
    let broken: Vec<String> = files.iter().flat_map(|f| broken_links(f)).collect();
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn every_page_of_the_book_is_in_its_summary() {
    let src = root().join("docs/src");
    let summary = fs::read_to_string(src.join("SUMMARY.md")).expect("docs/src/SUMMARY.md");
    let listed: BTreeSet<PathBuf> = link_targets(&summary)
        .into_iter()
        .map(|t| src.join(t))
        .collect();
    let orphans: Vec<String> = book_pages()
        .into_iter()
        .filter(|p| !p.ends_with("SUMMARY.md") && !listed.contains(p))
        .map(|p| p.display().to_string())
        .collect();
    assert!(orphans.is_empty(), "pages not in SUMMARY.md: {orphans:?}");
}

#[test]
fn every_path_the_architecture_names_exists() {
    let text = fs::read_to_string(root().join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    // Build outputs (ignored by git) exist only after a build, so a clean
    // clone lacks them: they are named, not checked.
    let gitignore = fs::read_to_string(root().join(".gitignore")).expect(".gitignore");
    let generated: Vec<&str> = gitignore
        .lines()
        .map(|l| l.trim().trim_start_matches('/').trim_end_matches('/'))
        .filter(|l| l.contains('/') && !l.starts_with('#'))
        .collect();
    let mut missing = Vec::new();
    for (i, span) in text.split('`').enumerate() {
        // Odd pieces are inside backticks.
        let path = span.split(':').next().unwrap_or(span);
        let looks_like_path = i % 2 == 1
            && path.contains('/')
            && !path.contains(' ')
            && !path.contains('*')
            && !path.contains('<')
            && !path.contains('{')
            && !path.starts_with("http")
            && !path.starts_with('/')
            && !generated.iter().any(|g| path.starts_with(g));
        if looks_like_path && !root().join(path).exists() {
            missing.push(path.to_string());
        }
    }
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names paths that do not exist: {missing:?}"
    );
}

#[test]
fn the_link_reader_finds_links_and_anchors() {
    let page = "# The match log\n\n```\n[not](a-link)\n```\nSee [the format](format.md#log-format) and [x](#the-match-log).\n## Log format\n";
    assert_eq!(
        link_targets(page),
        vec![
            "format.md#log-format".to_string(),
            "#the-match-log".to_string()
        ]
    );
    let found = anchors(page);
    assert!(found.contains("the-match-log") && found.contains("log-format"));
    assert_eq!(
        anchor(" Real games: WTHOR and Logistello"),
        "real-games-wthor-and-logistello"
    );
}
