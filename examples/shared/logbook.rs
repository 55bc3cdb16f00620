//! Logistello's game book (`DATA/logistello/logbook.gam.gz`), read whole
//! as text for `read_gam`, for the tools that take real games.

use std::io::Read;
use std::path::Path;

/// The text of `data`'s Logistello book, gunzipped, at most 64 MiB.
pub fn read_logbook(data: &Path) -> Result<String, String> {
    let path = data.join("logistello/logbook.gam.gz");
    let mut text = String::new();
    flate2::read::GzDecoder::new(
        std::fs::File::open(&path).map_err(|e| format!("{}: {e}", path.display()))?,
    )
    .take(64 << 20)
    .read_to_string(&mut text)
    .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text)
}
