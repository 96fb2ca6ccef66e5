//! The `session` resource: a conversation kept inside the engine (the core's
//! `live::Session`), so an agent's per-turn check costs its new messages only. Messages
//! cross once, when appended; `messages` writes the conversation back in its format.

use std::cell::RefCell;
use std::rc::Rc;

use compactor::engine::{self, Outcome, Status, Trigger};
use compactor::format::{Conversation, ParseOptions};
use compactor::live::{Session as LiveSession, Splice};
use compactor::wire::{Changes, PlanView, SessionAssessment, without_position};

use crate::error::{Code, Failure};
use crate::host::{Shared, to_json};
use crate::run::{Driven, Owner};

/// What a session and its runs share.
#[derive(Debug)]
pub(crate) struct SessionState {
    live: LiveSession,
    /// The format, and the text of every message as it came in.
    conversation: Conversation,
    /// Appended messages are read leniently too.
    lenient: bool,
    /// A run of this session is under way.
    pub(crate) compacting: bool,
}

impl SessionState {
    /// Applies a run's outcome: returns the messages written back and the changes.
    pub(crate) fn apply(
        &mut self,
        outcome: &Outcome,
        before: usize,
    ) -> Result<(String, Option<String>), Failure> {
        let splice = self.live.apply(outcome, before).clone();
        if matches!(outcome.status, Status::Compacted { .. }) {
            self.conversation.retain_originals(self.live.messages());
        }
        let messages = self.conversation.to_json(self.live.messages()).to_string();
        Ok((messages, Some(self.changes_json(&splice)?)))
    }

    /// A splice as `{start, deleteCount, insert}`, indices counted in the caller's
    /// messages array (an Anthropic body's `system` is not one of them).
    fn changes_json(&self, splice: &Splice) -> Result<String, Failure> {
        to_json(&Changes::of(
            &self.conversation,
            self.live.messages(),
            splice,
        ))
    }
}

/// A conversation kept inside the engine.
#[derive(Debug, Clone)]
pub struct Session {
    state: Shared<SessionState>,
}

impl Session {
    pub(crate) fn new(
        engine: &engine::Compactor,
        id: &str,
        mut conversation: Conversation,
        lenient: bool,
    ) -> Result<Self, Failure> {
        let messages = std::mem::take(&mut conversation.messages);
        Ok(Self {
            state: Rc::new(RefCell::new(SessionState {
                live: LiveSession::new(engine, id, messages),
                conversation,
                lenient,
                compacting: false,
            })),
        })
    }

    /// Appends messages: a JSON array in the session's format.
    pub fn append(&self, messages: &str) -> Result<(), Failure> {
        let json: serde_json::Value = serde_json::from_str(messages)
            .map_err(|e| Failure::invalid("messages", without_position(&e)))?;
        let mut state = self.state.borrow_mut();
        let lenient = state.lenient;
        let new = state
            .conversation
            .read_more(json, ParseOptions { lenient })?;
        state.live.append(new);
        Ok(())
    }

    /// The assessment of the whole conversation, as JSON.
    pub fn assess(&self) -> Result<String, Failure> {
        let mut state = self.state.borrow_mut();
        to_json(&SessionAssessment::from(state.live.assess()))
    }

    /// The plan, as JSON.
    pub fn plan(&self) -> Result<String, Failure> {
        let mut state = self.state.borrow_mut();
        let plan = state.live.plan()?;
        to_json(&PlanView::of(&plan, state.live.messages()))
    }

    /// Begins compacting the session; when the run is done, the session holds its result.
    pub fn compact_begin(&self, trigger: Trigger, now_ms: u64) -> Result<Driven, Failure> {
        let mut state = self.state.borrow_mut();
        if state.compacting {
            return Err(Failure::new(
                Code::Conflict,
                "a compaction of this session is already under way",
            ));
        }
        let mut run = state.live.begin(trigger, now_ms)?;
        run.check_format(state.conversation.format);
        state.compacting = true;
        let before = state.live.len();
        drop(state);
        Ok(Driven::new(
            run,
            Owner::Session {
                state: Rc::clone(&self.state),
                before,
            },
        ))
    }

    /// The conversation in its format, as JSON text.
    pub fn messages(&self) -> String {
        let state = self.state.borrow();
        state
            .conversation
            .to_json(state.live.messages())
            .to_string()
    }

    /// How the latest compaction changed the messages; `None` before one.
    pub fn changes(&self) -> Result<Option<String>, Failure> {
        let state = self.state.borrow();
        state
            .live
            .changes()
            .map(|splice| state.changes_json(splice))
            .transpose()
    }

    /// How many messages the session holds.
    pub fn len(&self) -> usize {
        self.state.borrow().live.len()
    }

    /// Does the session hold no messages?
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
