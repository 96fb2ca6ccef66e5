//! The `compactor` resource: a compactor built from a `config` record, with the calls that
//! change nothing (`assess`, `plan`, `count-tokens`) and the ones that begin something
//! (`begin` a run, open a `session`).

use std::cell::RefCell;
use std::rc::Rc;

use compactor::engine::{self, Trigger};
use compactor::select::TailPolicy;
use compactor::tokens::TokenAccountant;
use compactor::wire::{PlanView, encoding_named, without_position};
use serde::Serialize;

use crate::config::{Config, ReadOptions, read_conversation};
use crate::error::{Code, Failure};
use crate::run::Driven;
use crate::session::Session;

/// Serializes an output of the core. Its types are plain data: this cannot fail, and an
/// `INTERNAL` error says so if it ever does.
pub(crate) fn to_json<T: Serialize + ?Sized>(value: &T) -> Result<String, Failure> {
    serde_json::to_string(value)
        .map_err(|e| Failure::new(Code::Internal, format!("result not representable: {e}")))
}

/// A compactor: the numbers, the token memo, the summary cache, the circuit breakers.
#[derive(Debug, Clone)]
pub struct Host {
    engine: engine::Compactor,
    tail: TailPolicy,
}

impl Host {
    /// Resolves the numbers (explicit value > model catalog > default) and picks the
    /// tokenizer; `INVALID_INPUT` at `config.<field>` when they do not add up.
    pub fn new(config: &Config) -> Result<Self, Failure> {
        let config = config.to_core()?;
        let keep_recent_turns = config.keep_recent_turns;
        let budget = config.budget.resolve()?;
        let accountant = TokenAccountant::new(budget.encoding.counter());
        let engine = engine::Compactor::with_accountant(config, budget, accountant)?;
        Ok(Self {
            tail: TailPolicy::for_budget(keep_recent_turns, engine.budget()),
            engine,
        })
    }

    /// The engine underneath.
    pub fn engine(&self) -> &engine::Compactor {
        &self.engine
    }

    /// The resolved numbers, as JSON.
    pub fn budget(&self) -> Result<String, Failure> {
        to_json(self.engine.budget())
    }

    /// The counter in use: `o200k_base`, `cl100k_base` or `estimate`.
    pub fn counter(&self) -> String {
        self.engine.accountant().counter_name().to_owned()
    }

    /// Tokens and messages against the limits, as JSON.
    pub fn assess(&self, messages: &str, read: &ReadOptions) -> Result<String, Failure> {
        let conversation = read_conversation(messages, read)?;
        to_json(&self.engine.assess(&conversation.messages))
    }

    /// The assessment, the segments and the raw tail, as JSON (the npm package's `Plan`).
    pub fn plan(&self, messages: &str, read: &ReadOptions) -> Result<String, Failure> {
        let mut messages = read_conversation(messages, read)?.messages;
        compactor::prune::recognize(&mut messages);
        let plan = compactor::plan::plan(
            self.engine.accountant(),
            &messages,
            self.engine.budget(),
            &self.tail,
        )?;
        to_json(&PlanView::of(&plan, &messages))
    }

    /// Counts `text` with this compactor's tokenizer, or with `encoding`.
    pub fn count_tokens(&self, text: &str, encoding: Option<&str>) -> Result<u64, Failure> {
        Ok(match encoding {
            Some(name) => encoding_named(name, "encoding")?.counter().count(text),
            None => self.engine.accountant().counter().count(text),
        })
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
        let conversation = read_conversation(messages, read)?;
        let mut run = self
            .engine
            .begin(session, conversation.messages.clone(), trigger, now_ms)?;
        run.check_format(conversation.format);
        Ok(Driven::new(run, crate::run::Owner::Call(conversation)))
    }

    /// A conversation kept inside the engine.
    pub fn session(
        &self,
        id: &str,
        messages: &str,
        read: &ReadOptions,
    ) -> Result<Session, Failure> {
        let conversation = read_conversation(messages, read)?;
        Session::new(&self.engine, id, conversation, read.lenient)
    }

    /// Closes a session's circuit breaker and forgets its failures.
    pub fn reset_circuit(&self, session: &str) {
        self.engine.reset_circuit(session);
    }

    /// The engine's memory, as JSON.
    pub fn export_state(&self) -> Result<String, Failure> {
        to_json(&self.engine.export_state())
    }

    /// Merges an exported state; nothing is imported from a damaged one.
    pub fn import_state(&self, state: &str) -> Result<(), Failure> {
        let value: serde_json::Value = serde_json::from_str(state)
            .map_err(|e| Failure::invalid("state", without_position(&e)))?;
        let state = engine::EngineState::from_json(&value)
            .map_err(|e| Failure::invalid(format!("state.{}", e.path), e.message))?;
        self.engine
            .import_state(state)
            .map_err(|e| Failure::invalid(format!("state.{}", e.path), e.message))
    }
}

/// A shared, mutable session, as the `session` resource and its runs hold it.
pub(crate) type Shared<T> = Rc<RefCell<T>>;
