//! Huge pages for the search tables, on Linux with glibc.
//!
//! The solver's table (256 MiB) and the midgame search's are read at
//! random places, so with 4 KiB pages nearly every probe also misses the
//! processor's page cache (the TLB) and waits on a page walk: in `perf`,
//! the solver's table prefetches and probes took a fifth of its busiest
//! function's time. With 2 MiB pages FFO #40–#49 solves 6–8 % faster
//! (design chapter). Linux gives them to memory that asks (`madvise`, the
//! usual setting of transparent huge pages), and asking needs `unsafe`,
//! which this crate forbids. glibc (2.35 and later) asks by itself for
//! every large allocation when its tunable `glibc.malloc.hugetlb=1` is set,
//! but reads its tunables only when a program starts: so the program
//! starts itself again, once, with it set.
//!
//! Nothing is done when `GLIBC_TUNABLES` is already set (set it empty to
//! keep the program from restarting) or when the system gives huge pages
//! to all memory or to none; this module is built on Linux with glibc
//! only. A restart that fails leaves the program running as it was.

use std::ffi::OsStr;
use std::os::unix::process::CommandExt;

/// The environment variable glibc reads its tunables from.
const TUNABLES: &str = "GLIBC_TUNABLES";
/// glibc's tunable that makes `malloc` ask for transparent huge pages.
const HUGE_PAGES: &str = "glibc.malloc.hugetlb=1";
/// Where Linux says when memory gets transparent huge pages: the word in
/// brackets is the mode in force (`always`, `madvise` or `never`).
const MODE_FILE: &str = "/sys/kernel/mm/transparent_hugepage/enabled";

/// Starts this program again with glibc asking for huge pages, when that
/// would give the search tables huge pages they would not get otherwise.
/// Returns only when it did not restart. Call it first thing in `main`,
/// while the process has one thread.
pub fn restart_with_huge_pages() {
    let mode = std::fs::read_to_string(MODE_FILE).unwrap_or_default();
    if !wants_restart(std::env::var_os(TUNABLES).as_deref(), &mode) {
        return;
    }
    let Ok(program) = std::env::current_exe() else {
        return;
    };
    let mut args = std::env::args_os();
    let mut command = std::process::Command::new(program);
    if let Some(name) = args.next() {
        command.arg0(name);
    }
    // `exec` returns only on failure; the program then goes on as it was,
    // without huge pages.
    let _ = command.args(args).env(TUNABLES, HUGE_PAGES).exec();
}

/// Whether to restart, given `GLIBC_TUNABLES` (`None`: unset) and the
/// contents of [`MODE_FILE`]: only when the tunables are unset and the
/// system gives huge pages to the memory that asks for them, and only to it.
fn wants_restart(tunables: Option<&OsStr>, mode: &str) -> bool {
    tunables.is_none() && mode.split_whitespace().any(|word| word == "[madvise]")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restarts_only_with_tunables_unset_and_huge_pages_on_request() {
        let madvise = "always [madvise] never\n";
        assert!(wants_restart(None, madvise));
        // Set by the user (even empty), or set by the restart itself.
        assert!(!wants_restart(Some(OsStr::new("")), madvise));
        assert!(!wants_restart(Some(OsStr::new(HUGE_PAGES)), madvise));
        // All memory gets them already, or none can; or no such file.
        assert!(!wants_restart(None, "[always] madvise never\n"));
        assert!(!wants_restart(None, "always madvise [never]\n"));
        assert!(!wants_restart(None, ""));
    }
}
