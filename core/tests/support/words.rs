//! Command-line words, as a shell would split them: shared by the core's
//! tests and the application's (`tests/support/mod.rs` reads this file).

/// Splits on spaces, keeping double-quoted parts together.
pub fn split_quoted(text: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' => quoted = !quoted,
            ' ' if !quoted => {
                if !current.is_empty() {
                    parts.push(std::mem::take(&mut current));
                }
            }
            _ => current.push(c),
        }
    }
    if !current.is_empty() {
        parts.push(current);
    }
    parts
}
