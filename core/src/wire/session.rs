//! The session a host keeps: the engine's [`crate::live::Session`], the
//! conversation's format and the JSON each message came in (to write them back), how
//! appended messages are read, and whether a run of it is under way. Every host's session
//! is this one, so every host's sessions compact through the session's runner: the
//! default policy ([`crate::policy`]) applies in each exactly as in Rust.

use serde_json::Value;

use super::view::{Changes, Finished, PlanView, SessionAssessment, json};
use super::{Code, Failure};
use crate::engine::{Compactor, Outcome, Run, Status, Trigger};
use crate::format::{Conversation, ParseOptions, Written};
use crate::live::{self, Splice};
use crate::message::Message;
use crate::pin::Pins;

/// A conversation kept inside the engine, in the format it was read in.
#[derive(Debug)]
pub struct Session {
    live: live::Session,
    /// The format, the request body around the messages and each message's JSON; its
    /// `messages` stay empty (`live` holds them).
    conversation: Conversation,
    /// Appended messages are read leniently too.
    lenient: bool,
    /// A run is under way: how many messages the session held when it began.
    running: Option<usize>,
}

impl Session {
    /// A session `id` of `engine` holding `conversation`'s messages.
    pub fn new(
        engine: &Compactor,
        id: &str,
        mut conversation: Conversation,
        lenient: bool,
    ) -> Self {
        let messages = std::mem::take(&mut conversation.messages);
        Self {
            live: live::Session::new(engine, id, messages),
            conversation,
            lenient,
            running: None,
        }
    }

    /// The session id.
    pub fn id(&self) -> &str {
        self.live.id()
    }

    /// How many messages the session holds (the engine's count: an Anthropic body's
    /// `system` is one).
    pub fn len(&self) -> usize {
        self.live.len()
    }

    /// Does the session hold no message?
    pub fn is_empty(&self) -> bool {
        self.live.is_empty()
    }

    /// The messages.
    pub fn messages(&self) -> &[Message] {
        self.live.messages()
    }

    /// The messages written back in the session's format: those no compaction rewrote as
    /// they came in.
    pub fn written(&self) -> Written<'_> {
        self.conversation.to_json(self.live.messages())
    }

    /// Pins messages, `pins.indices` counted in the caller's messages array (which does
    /// not hold what its format reads from outside it, such as Anthropic's `system`);
    /// `INVALID_INPUT` at `path` when one is past its end, and nothing is pinned.
    pub fn pin<H>(&mut self, pins: &Pins, path: &str) -> Result<(), Failure<H>> {
        let given = self.conversation.given_start(self.live.messages());
        self.live
            .pin(pins, given)
            .map_err(|e| Failure::invalid(path, e.to_string()))
    }

    /// Appends `items`, a JSON array of messages in the session's format: only they are
    /// read, counted and segmented. On error none is appended.
    pub fn append<H>(&mut self, items: Value) -> Result<(), Failure<H>> {
        let options = ParseOptions {
            lenient: self.lenient,
        };
        let new = self.conversation.read_more(items, options)?;
        self.live.append(new);
        Ok(())
    }

    /// The assessment, without the per-message list.
    pub fn assess<H>(&mut self) -> Result<String, Failure<H>> {
        json(&SessionAssessment::from(self.live.assess()))
    }

    /// The plan, as the stateless `plan` gives it.
    pub fn plan<H>(&mut self) -> Result<String, Failure<H>> {
        let plan = self.live.plan()?;
        json(&PlanView::of(&plan, self.live.messages()))
    }

    /// Begins compacting the session through its runner (the default policy's depth when
    /// it applies). Drive the run, then hand its outcome to [`Session::finish`], or give
    /// it up with [`Session::release`]. `CONFLICT` while another run is under way.
    pub fn begin<H: super::Host>(
        &mut self,
        trigger: Trigger,
        now_ms: u64,
    ) -> Result<Run, Failure<H>> {
        if self.running.is_some() {
            return Err(Failure::new(
                Code::Conflict,
                "a compaction of this session is already under way",
            ));
        }
        let mut run = self.live.begin(trigger, now_ms)?;
        run.check_format(self.conversation.format);
        self.running = Some(self.live.len());
        Ok(run)
    }

    /// Applies the outcome of the run [`Session::begin`] began: messages appended since
    /// stay after it. Returns its status, report and changes.
    pub fn finish<H>(&mut self, outcome: &Outcome) -> Result<Finished, Failure<H>> {
        let before = self.running.take().unwrap_or(self.live.len());
        let splice = self.live.apply(outcome, before).clone();
        if matches!(outcome.status, Status::Compacted { .. }) {
            self.conversation.retain_originals(self.live.messages());
        }
        Ok(Finished {
            changes: Some(self.changes_json(&splice)?),
            ..Finished::of(outcome)?
        })
    }

    /// The run [`Session::begin`] began ended without an outcome: another may begin.
    pub fn release(&mut self) {
        self.running = None;
    }

    /// What the latest compaction changed, as JSON `{start, deleteCount, insert}`;
    /// `None` before one.
    pub fn changes<H>(&self) -> Result<Option<String>, Failure<H>> {
        self.live
            .changes()
            .map(|splice| self.changes_json(splice))
            .transpose()
    }

    fn changes_json<H>(&self, splice: &Splice) -> Result<String, Failure<H>> {
        json(&Changes::of(
            &self.conversation,
            self.live.messages(),
            splice,
        ))
    }
}
