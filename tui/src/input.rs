//! Reading a conversation and the numbers it is measured against.

use std::path::{Path, PathBuf};

use clap::Args;
use compactor::budget::{Budget, BudgetConfig};
use compactor::engine::CompactionConfig;
use compactor::format::{self, Conversation, Format, ParseOptions, recording};
use compactor::pin::Pins;
use compactor::segment::segment;
use compactor::tokens::Encoding;

use crate::failure::Failure;
use crate::summarizer::SummarizerArgs;

/// The conversation file and how to read it.
#[derive(Args, Debug, Clone)]
pub struct InputArgs {
    /// A JSON file of messages (OpenAI Chat, Anthropic Messages, AI SDK, OpenAI Responses
    /// items, Gemini contents) or a request body; or an agent's own session file: a Codex
    /// rollout, a Claude Code transcript, a gemini-cli or Qwen Code chat or checkpoint.
    pub file: PathBuf,
    /// The message format; `auto` tells it from the content.
    #[arg(long, value_enum, default_value = "auto")]
    pub format: FormatArg,
    /// Keep unknown roles and content parts as pinned, opaque messages instead of failing
    /// (for example the `exit` message some agent frameworks append).
    #[arg(long)]
    pub lenient: bool,
    #[command(flatten)]
    pub pins: PinArgs,
}

/// What the caller keeps out of compaction.
#[derive(Args, Debug, Clone, Default)]
pub struct PinArgs {
    /// Keep these messages verbatim at every level: indices in the file's messages array,
    /// comma-separated (`--pin 0,5`).
    #[arg(long, value_delimiter = ',', value_name = "INDICES")]
    pub pin: Vec<usize>,
    /// Pin every message: the conversation is assessed, never rewritten (a run is skipped,
    /// or fails with a context overflow when it is over the absolute limit).
    #[arg(long)]
    pub pin_all: bool,
}

impl PinArgs {
    /// The pins, as the engine takes them.
    pub fn pins(&self) -> Pins {
        Pins {
            indices: self.pin.clone(),
            compactable: !self.pin_all,
        }
    }

    /// Pins the conversation's messages; an index past the end is an input error.
    pub fn apply(&self, conversation: &mut Conversation) -> Result<(), Failure> {
        let given = conversation.given_start(&conversation.messages);
        self.pins()
            .apply(&mut conversation.messages, given)
            .map_err(|e| Failure::Input(format!("--pin: {e}")))
    }
}

/// The formats the command line accepts.
#[derive(clap::ValueEnum, Debug, Clone, Copy)]
pub enum FormatArg {
    /// Tell the format from the content (a top-level `system`, block and part types).
    Auto,
    /// OpenAI Chat Completions messages.
    Openai,
    /// Anthropic Messages: content blocks, top-level `system`.
    Anthropic,
    /// Vercel AI SDK `ModelMessage`s (and AI SDK 4 `CoreMessage`s).
    AiSdk,
    /// OpenAI Responses input items (an array, or a body with `input`, `instructions`).
    OpenaiResponses,
    /// Gemini `contents` (an array, or a body with `contents`, `systemInstruction`).
    Gemini,
}

impl FormatArg {
    /// The explicit format, or `None` for `auto`.
    pub fn format(self) -> Option<Format> {
        match self {
            FormatArg::Auto => None,
            FormatArg::Openai => Some(Format::OpenAi),
            FormatArg::Anthropic => Some(Format::Anthropic),
            FormatArg::AiSdk => Some(Format::AiSdk),
            FormatArg::OpenaiResponses => Some(Format::OpenAiResponses),
            FormatArg::Gemini => Some(Format::Gemini),
        }
    }
}

/// The numbers: a catalog model and overrides.
#[derive(Args, Debug, Clone)]
pub struct BudgetArgs {
    /// The model, looked up in the built-in catalog.
    #[arg(long, default_value = "gpt-4o")]
    pub model: String,
    /// The model's context window in tokens (overrides the catalog).
    #[arg(long)]
    pub max_context: Option<u64>,
    /// Tokens kept free for the answer (overrides the catalog).
    #[arg(long)]
    pub output_reserve: Option<u64>,
    /// Size past which answers degrade [default: 128000].
    #[arg(long)]
    pub comfort: Option<u64>,
    /// Compaction starts above this share of the limit [default: 0.92].
    #[arg(long)]
    pub trigger: Option<f64>,
    /// A run stops at or below this share of the limit [default: 0.75].
    #[arg(long)]
    pub target: Option<f64>,
    /// The message-count signal, or `off` (0 too).
    #[arg(long, default_value = "50", value_parser = parse_max_messages)]
    pub max_messages: MaxMessages,
    /// The tokenizer: o200k_base, cl100k_base or estimate (overrides the catalog).
    #[arg(long, value_parser = parse_encoding)]
    pub encoding: Option<Encoding>,
    /// Recent turns kept raw.
    #[arg(long, default_value_t = CompactionConfig::default().keep_recent_turns)]
    pub keep_recent_turns: usize,
}

/// `--max-messages N` or `off` (or 0, which turns it off in every host).
#[derive(Debug, Clone, Copy)]
pub struct MaxMessages(pub Option<usize>);

fn parse_max_messages(text: &str) -> Result<MaxMessages, String> {
    if text == "off" || text == "0" {
        return Ok(MaxMessages(None));
    }
    text.parse()
        .map(|n| MaxMessages(Some(n)))
        .map_err(|_| format!("expected a number or `off`, got {text:?}"))
}

fn parse_encoding(text: &str) -> Result<Encoding, String> {
    Encoding::parse(text).ok_or_else(|| {
        format!("unknown encoding {text:?}: use o200k_base, cl100k_base or estimate")
    })
}

impl BudgetArgs {
    /// The numbers as configuration.
    pub fn config(&self) -> BudgetConfig {
        BudgetConfig {
            model: Some(self.model.clone()),
            max_context_tokens: self.max_context,
            output_reserve: self.output_reserve,
            comfort_tokens: self.comfort,
            trigger_ratio: self.trigger,
            target_ratio: self.target,
            max_messages: self.max_messages.0,
            encoding: self.encoding,
        }
    }

    /// The engine's configuration: these numbers, the summarizer's model and deadline,
    /// defaults for the rest.
    pub fn compaction_config(&self, summarizer: &SummarizerArgs) -> CompactionConfig {
        summarizer.configure(CompactionConfig {
            budget: self.config(),
            keep_recent_turns: self.keep_recent_turns,
            ..CompactionConfig::default()
        })
    }

    /// Resolves the numbers.
    pub fn budget(&self) -> Result<Budget, Failure> {
        self.config()
            .resolve()
            .map_err(|e| Failure::Input(e.to_string()))
    }
}

/// What of an agent's session file a command works on (see [`recording`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    /// The whole run, the agent's own compactions left out: what `replay` prices.
    Run,
    /// The conversation as the agent holds it at the end: what `plan`, `compact` and
    /// `inspect` work on.
    Context,
}

impl InputArgs {
    /// Reads and parses the file (`view` of an agent's session file), checks that its tool
    /// calls and results pair up, and applies the pins.
    pub fn read(&self, view: View) -> Result<Conversation, Failure> {
        let text = read_file(&self.file)?;
        let mut conversation = parse_text(
            &text,
            &self.file.display().to_string(),
            self.format,
            self.lenient,
            view,
        )?;
        self.pins.apply(&mut conversation)?;
        Ok(conversation)
    }
}

/// Parses a conversation's text (`name` says where it came from in messages), and checks
/// that its tool calls and results pair up. With `--format auto`, an agent's own session
/// file is told from its content and read as the requests it sent: `view` of it.
pub fn parse_text(
    text: &str,
    name: &str,
    format: FormatArg,
    lenient: bool,
    view: View,
) -> Result<Conversation, Failure> {
    let options = ParseOptions { lenient };
    let recorded = match format.format() {
        Some(_) => None,
        None => recording::read(text).map_err(|e| Failure::Input(format!("{name}: {e}")))?,
    };
    let parsed = match (recorded, format.format()) {
        (Some(recording), _) => {
            let body = match view {
                View::Run => recording.run(),
                View::Context => recording.context(),
            };
            format::parse_value(body, recording.format, options)
        }
        (None, Some(format)) => format::parse_str(text, format, options),
        (None, None) => format::parse_str_auto(text, options),
    };
    let conversation = parsed.map_err(|e| {
        let hint = if e.message.starts_with("unknown") {
            " (--lenient keeps it as a pinned message)"
        } else {
            ""
        };
        Failure::Input(format!("{name}: {e}{hint}"))
    })?;
    segment(&conversation.messages).map_err(|e| Failure::Input(format!("{name}: {e}")))?;
    Ok(conversation)
}

fn read_file(path: &Path) -> Result<String, Failure> {
    std::fs::read_to_string(path).map_err(|e| Failure::Input(format!("{}: {e}", path.display())))
}
