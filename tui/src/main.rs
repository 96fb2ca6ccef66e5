//! `compactor`: plan and compact agent conversations from the command line.

mod clock;
mod compact;
mod failure;
mod input;
mod inspect;
mod plan;
mod replay;
mod summarizer;
mod words;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use failure::{Failure, say};

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
