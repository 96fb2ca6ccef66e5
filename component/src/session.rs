//! The `session` resource: a conversation kept inside the engine (the host layer's
//! [`wire::Session`]), so an agent's per-turn check costs its new messages only. Messages
//! cross once, when appended; `messages` writes the conversation back in its format.

use std::cell::RefCell;
use std::rc::Rc;

use compactor::engine::Trigger;
use compactor::wire::{self, without_position};

use crate::error::Failure;
use crate::run::{Driven, Owner};

/// A conversation kept inside the engine.
#[derive(Debug, Clone)]
pub struct Session {
    state: Rc<RefCell<wire::Session>>,
}

impl Session {
    pub(crate) fn new(session: wire::Session) -> Self {
        Self {
            state: Rc::new(RefCell::new(session)),
        }
    }

    /// Appends messages: a JSON array in the session's format.
    pub fn append(&self, messages: &str) -> Result<(), Failure> {
        let json: serde_json::Value = serde_json::from_str(messages)
            .map_err(|e| Failure::invalid("messages", without_position(&e)))?;
        self.state.borrow_mut().append(json)
    }

    /// The assessment of the whole conversation, as JSON.
    pub fn assess(&self) -> Result<String, Failure> {
        self.state.borrow_mut().assess()
    }

    /// The plan, as JSON.
    pub fn plan(&self) -> Result<String, Failure> {
        self.state.borrow_mut().plan()
    }

    /// Begins compacting the session; when the run is done, the session holds its result.
    pub fn compact_begin(&self, trigger: Trigger, now_ms: u64) -> Result<Driven, Failure> {
        let run = self.state.borrow_mut().begin(trigger, now_ms)?;
        Ok(Driven::new(run, Owner::Session(Rc::clone(&self.state))))
    }

    /// The conversation in its format, as JSON text.
    pub fn messages(&self) -> String {
        self.state.borrow().written().to_string()
    }

    /// How the latest compaction changed the messages; `None` before one.
    pub fn changes(&self) -> Result<Option<String>, Failure> {
        self.state.borrow().changes()
    }

    /// How many messages the session holds.
    pub fn len(&self) -> usize {
        self.state.borrow().len()
    }

    /// Does the session hold no messages?
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
