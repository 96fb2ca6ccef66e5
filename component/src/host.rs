//! The `compactor` resource: a compactor built from a `config` record, with the calls that
//! change nothing (`assess`, `plan`, `count-tokens`) and the ones that begin something
//! (`begin` a run, open a `session`).

use std::sync::Arc;

use compactor::engine::Trigger;
use compactor::pin::Pins;
use compactor::tokens::{Encoding, TokenCounter};
use compactor::wire::{self, Handle, encoding_named, without_position};

use crate::config::{Config, ReadOptions, read_conversation};
use crate::error::Failure;
use crate::run::{Driven, Owner};
use crate::session::Session;

/// A compactor: the numbers, the token memo, the summary cache, the circuit breakers.
#[derive(Debug, Clone)]
pub struct Host {
    handle: Handle,
}

impl Host {
    /// Resolves the numbers (explicit value > model catalog > default) and picks the
    /// tokenizer; `INVALID_INPUT` at `config.<field>` when they do not add up.
    pub fn new(config: &Config) -> Result<Self, Failure> {
        Ok(Self {
            handle: Handle::new(config.to_core()?, Encoding::counter)?,
        })
    }

    /// The engine underneath.
    pub fn engine(&self) -> &compactor::engine::Compactor {
        self.handle.engine()
    }

    /// The resolved numbers, as JSON.
    pub fn budget(&self) -> Result<String, Failure> {
        self.handle.budget()
    }

    /// The counter in use: `o200k_base`, `cl100k_base` or `estimate`.
    pub fn counter(&self) -> String {
        self.engine().accountant().counter_name().to_owned()
    }

    /// Tokens and messages against the limits, as JSON.
    pub fn assess(&self, messages: &str, read: &ReadOptions) -> Result<String, Failure> {
        self.handle
            .assess(&read_conversation(messages, read)?.messages)
    }

    /// The assessment, the segments and the raw tail, as JSON (the npm package's `Plan`).
    pub fn plan(&self, messages: &str, read: &ReadOptions) -> Result<String, Failure> {
        self.handle
            .plan(read_conversation(messages, read)?.messages)
    }

    /// Counts `text` with this compactor's tokenizer, or with `encoding`.
    pub fn count_tokens(&self, text: &str, encoding: Option<&str>) -> Result<u64, Failure> {
        let encoding = encoding
            .map(|name| encoding_named(name, "encoding"))
            .transpose()?;
        Ok(self.handle.count_tokens(text, encoding))
    }

    /// Begins compacting `messages` for `session`.
    pub fn begin(
        &self,
        messages: &str,
        read: &ReadOptions,
        session: &str,
        trigger: Trigger,
        now_ms: u64,
    ) -> Result<Driven, Failure> {
        let mut conversation = read_conversation(messages, read)?;
        // Written back from the originals the conversation keeps: its messages go to the
        // run as they are, uncopied.
        let run = self.handle.begin(
            std::mem::take(&mut conversation.messages),
            conversation.format,
            session,
            trigger,
            now_ms,
        )?;
        Ok(Driven::new(run, Owner::Call(conversation)))
    }

    /// A conversation kept inside the engine.
    pub fn session(
        &self,
        id: &str,
        messages: &str,
        read: &ReadOptions,
    ) -> Result<Session, Failure> {
        let conversation = read_conversation(messages, read)?;
        let session = self
            .handle
            .session(id, conversation, read.lenient, &Pins::default())?;
        Ok(Session::new(session))
    }

    /// Closes a session's circuit breaker and forgets its failures.
    pub fn reset_circuit(&self, session: &str) {
        self.engine().reset_circuit(session);
    }

    /// The engine's memory, as JSON.
    pub fn export_state(&self) -> Result<String, Failure> {
        self.handle.export_state()
    }

    /// Merges an exported state; nothing is imported from a damaged one.
    pub fn import_state(&self, state: &str) -> Result<(), Failure> {
        let value: serde_json::Value = serde_json::from_str(state)
            .map_err(|e| Failure::invalid("state", without_position(&e)))?;
        self.handle.import_state(&value)
    }
}

/// The counter of the encoding named `encoding` (default `o200k_base`), for the calls
/// that count without a compactor.
pub fn counter(encoding: Option<&str>) -> Result<Arc<dyn TokenCounter>, Failure> {
    let encoding = match encoding {
        Some(name) => wire::encoding_named(name, "encoding")?,
        None => Encoding::O200kBase,
    };
    Ok(encoding.counter())
}
