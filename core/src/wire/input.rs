//! Inputs every host reads the same way, whatever carries them.

use super::Failure;
use crate::tokens::Encoding;

/// The encoding `name` given at `path` (`o200k_base`, `cl100k_base`, `estimate`).
pub fn encoding_named<H>(name: &str, path: &str) -> Result<Encoding, Failure<H>> {
    Encoding::parse(name).ok_or_else(|| {
        Failure::invalid(
            path,
            format!(
                "unknown encoding {name:?} (expected \"o200k_base\", \"cl100k_base\" or \"estimate\")"
            ),
        )
    })
}
