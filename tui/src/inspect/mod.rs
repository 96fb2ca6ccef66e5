//! `compactor inspect`: the live inspector.
//!
//! Model / update / view: [`model::App`] holds the state, [`update`] changes it from keys,
//! answers and the clock without IO, [`stepper`] drives the compaction run, [`view`] draws
//! it, and [`runtime`] owns the terminal and the summarizer threads.

mod edit;
pub mod model;
pub mod numbers;
pub mod runtime;
pub mod segments;
pub mod stepper;
pub mod update;
pub mod view;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use compactor::engine::Trigger;

use crate::failure::Failure;
use crate::input::{BudgetArgs, FormatArg, PinArgs, View, parse_text};
use crate::summarizer::{BlockingSummarizer, SummarizerArgs};
use model::{App, Mode};

/// The bundled sample, so `compactor inspect` works anywhere.
pub const SAMPLE: &str = include_str!("../../../samples/sample.json");

/// Arguments of `compactor inspect`.
#[derive(Args, Debug)]
pub struct InspectArgs {
    /// A JSON file of messages (OpenAI, Anthropic or AI SDK) [default: the bundled sample].
    pub file: Option<PathBuf>,
    /// The message format.
    #[arg(long, value_enum, default_value = "auto")]
    pub format: FormatArg,
    /// Keep unknown roles as pinned, opaque messages instead of failing.
    #[arg(long)]
    pub lenient: bool,
    #[command(flatten)]
    pub pins: PinArgs,
    #[command(flatten)]
    pub budget: BudgetArgs,
    /// Compact towards the target even when no signal fired.
    #[arg(long)]
    pub manual: bool,
    /// Start running to the end at once instead of waiting for Space or r.
    #[arg(long)]
    pub run: bool,
    #[command(flatten)]
    pub summarizer: SummarizerArgs,
}

/// `<stem>.compacted.json` beside `input`.
pub fn export_path(input: &Path) -> PathBuf {
    let stem = input
        .file_stem()
        .map_or("conversation".into(), |s| s.to_string_lossy().into_owned());
    input.with_file_name(format!("{stem}.compacted.json"))
}

impl InspectArgs {
    /// The app and the summarizer these arguments describe.
    pub fn build(&self) -> Result<(App, Arc<dyn BlockingSummarizer>), Failure> {
        let (name, text, export) = match &self.file {
            Some(path) => (
                path.display().to_string(),
                std::fs::read_to_string(path)
                    .map_err(|e| Failure::Input(format!("{}: {e}", path.display())))?,
                export_path(path),
            ),
            None => (
                "sample.json (bundled)".to_owned(),
                SAMPLE.to_owned(),
                PathBuf::from("sample.compacted.json"),
            ),
        };
        let mut conversation = parse_text(&text, &name, self.format, self.lenient, View::Context)?;
        self.pins.apply(&mut conversation)?;
        let name = self
            .file
            .as_deref()
            .and_then(Path::file_name)
            .map_or(name, |n| n.to_string_lossy().into_owned());
        let config = self.budget.compaction_config(&self.summarizer);
        let summarizer = self.summarizer.build(&self.budget.model)?;
        let mut app = App::new(name, conversation, export, config, summarizer.name())
            .map_err(Failure::Input)?;
        app.trigger = if self.manual {
            Trigger::Manual
        } else {
            Trigger::Proactive
        };
        app.status = "Space steps through the ladder, r runs to the end, ? shows the keys".into();
        if self.run {
            app.mode = Mode::Run;
            app.handle_key(crossterm::event::KeyEvent::from(
                crossterm::event::KeyCode::Char('r'),
            ));
        }
        Ok((app, Arc::new(summarizer)))
    }
}

/// Runs `compactor inspect`.
pub fn run(args: &InspectArgs) -> Result<(), Failure> {
    let (app, summarizer) = args.build()?;
    runtime::run(app, summarizer).map_err(|e| Failure::Other(format!("terminal: {e}")))
}

#[cfg(test)]
mod tests;
