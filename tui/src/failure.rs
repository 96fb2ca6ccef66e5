//! How a command fails, and the two ways it speaks: stdout for results, stderr for the
//! rest.

use std::io::{ErrorKind, Write};

/// A failure to report: bad input exits 2, anything else 1.
#[derive(Debug)]
pub enum Failure {
    /// The input (file, JSON, numbers) is unusable; the message names where.
    Input(String),
    /// Something went wrong on our side or in the environment.
    Other(String),
    /// The reader of stdout closed it (`compactor plan big.json | head`): not a failure,
    /// the command stops quietly and exits 0, as ripgrep does.
    Closed,
}

/// Prints `text` to stdout. A closed pipe stops the command quietly ([`Failure::Closed`]):
/// `print!` would panic on it, since Rust ignores `SIGPIPE`.
pub fn print(text: &str) -> Result<(), Failure> {
    let mut stdout = std::io::stdout().lock();
    match stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
    {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Err(Failure::Closed),
        Err(e) => Err(Failure::Other(format!("stdout: {e}"))),
    }
}

/// Prints `line` to stderr, ignoring a stderr that is closed: there is nowhere left to
/// say so (`eprintln!` would panic).
pub fn say(line: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}
