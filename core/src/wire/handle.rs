//! The compactor a host keeps: the engine, built from a config with the host's counters,
//! and the calls that read a conversation the host has already parsed. Outputs are JSON
//! text, which each host hands on as it represents values (`JSON.parse` in JS, a WIT
//! `string`).

use std::sync::Arc;

use serde_json::Value;

use super::session::Session;
use super::view::{PlanView, json};
use super::{Failure, Host};
use crate::engine::{CompactionConfig, Compactor, EngineState, Run, Trigger};
use crate::format::{Conversation, Format};
use crate::message::Message;
use crate::pin::Pins;
use crate::select::TailPolicy;
use crate::tokens::{Encoding, TokenAccountant, TokenCounter};

/// How a host finds the counter of an encoding: the embedded vocabulary, or one it loaded
/// at run time (the lite npm package).
pub type Counters = fn(Encoding) -> Arc<dyn TokenCounter>;

/// A compactor as a host holds it. Cheap to clone: clones share the engine (memo,
/// calibration, summary cache, breakers).
#[derive(Debug, Clone)]
pub struct Handle {
    engine: Compactor,
    counters: Counters,
}

impl Handle {
    /// Resolves the numbers (explicit value > model catalog > default) and counts with the
    /// counter `counters` gives for the budget's encoding.
    pub fn new<H: Host>(config: CompactionConfig, counters: Counters) -> Result<Self, Failure<H>> {
        let budget = config.budget.resolve()?;
        let accountant = TokenAccountant::new(counters(budget.encoding));
        let engine = Compactor::with_accountant(config, budget, accountant)?;
        Ok(Self { engine, counters })
    }

    /// The engine underneath.
    pub fn engine(&self) -> &Compactor {
        &self.engine
    }

    /// The resolved numbers.
    pub fn budget<H>(&self) -> Result<String, Failure<H>> {
        json(self.engine.budget())
    }

    /// The assessment of `messages`.
    pub fn assess<H>(&self, messages: &[Message]) -> Result<String, Failure<H>> {
        json(&self.engine.assess(messages))
    }

    /// The plan of `messages` (summaries an earlier run wrote recognized), with each
    /// segment's state and where the summaries stand.
    pub fn plan<H>(&self, mut messages: Vec<Message>) -> Result<String, Failure<H>> {
        let tail =
            TailPolicy::for_budget(self.engine.config().keep_recent_turns, self.engine.budget());
        let plan = crate::plan::plan_read(
            self.engine.accountant(),
            &mut messages,
            self.engine.budget(),
            &tail,
        )?;
        json(&PlanView::of(&plan, &messages))
    }

    /// Counts `text` with this compactor's counter, or with `encoding`'s.
    pub fn count_tokens(&self, text: &str, encoding: Option<Encoding>) -> u64 {
        match encoding {
            Some(encoding) => (self.counters)(encoding).count(text),
            None => self.engine.accountant().counter().count(text),
        }
    }

    /// Begins compacting `messages`, read in `format`, for `session`; the run checks its
    /// result against the format's rules.
    pub fn begin<H: Host>(
        &self,
        messages: Vec<Message>,
        format: Format,
        session: &str,
        trigger: Trigger,
        now_ms: u64,
    ) -> Result<Run, Failure<H>> {
        let mut run = self.engine.begin(session, messages, trigger, now_ms)?;
        run.check_format(format);
        Ok(run)
    }

    /// A session `id` holding `conversation`, read leniently or not (messages appended later
    /// are read the same way), with `pins` applied (`INVALID_INPUT` at `H::PIN`).
    pub fn session<H: Host>(
        &self,
        id: &str,
        conversation: Conversation,
        lenient: bool,
        pins: &Pins,
    ) -> Result<Session, Failure<H>> {
        let mut session = Session::new(&self.engine, id, conversation, lenient);
        session.pin(pins, H::PIN)?;
        Ok(session)
    }

    /// The engine's memory.
    pub fn export_state<H>(&self) -> Result<String, Failure<H>> {
        json(&self.engine.export_state())
    }

    /// Merges an exported state, read from `value`; a damaged one is `INVALID_INPUT` at
    /// `state.<path>`, and nothing is imported.
    pub fn import_state<H>(&self, value: &Value) -> Result<(), Failure<H>> {
        let invalid =
            |e: crate::engine::StateError| Failure::invalid(format!("state.{}", e.path), e.message);
        let state = EngineState::from_json(value).map_err(invalid)?;
        self.engine.import_state(state).map_err(invalid)
    }
}
