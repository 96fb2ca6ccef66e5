//! `compactor`: plan and compact agent conversations from the command line.

mod clock;
mod compact;
mod input;
mod inspect;
mod plan;
mod replay;
mod summarizer;
mod words;

use std::io::{ErrorKind, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Keeps an LLM agent's conversation inside the model's context window.
#[derive(Parser)]
#[command(name = "compactor", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Show the assessment, the segments and the raw tail of a conversation.
    Plan(plan::PlanArgs),
    /// Compact a conversation and print the report (levels, tokens, requests).
    Compact(compact::CompactArgs),
    /// Watch compaction live: gauge, segments, ladder, requests in flight, events.
    Inspect(inspect::InspectArgs),
    /// Replay a trajectory call by call and price it: cost against keeping everything,
    /// cache share, prompt sizes, compactions, facts seen.
    Replay(replay::ReplayArgs),
}

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

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Plan(args) => plan::run(&args),
        Command::Compact(args) => compact::run(&args),
        Command::Inspect(args) => inspect::run(&args),
        Command::Replay(args) => replay::run(&args),
    };
    match result {
        Ok(()) | Err(Failure::Closed) => ExitCode::SUCCESS,
        Err(Failure::Input(message)) => {
            say(&format!("compactor: {message}"));
            ExitCode::from(2)
        }
        Err(Failure::Other(message)) => {
            say(&format!("compactor: {message}"));
            ExitCode::from(1)
        }
    }
}
