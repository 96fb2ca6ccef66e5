//! A live conversation kept inside the engine: the messages with their token counts,
//! content hashes and segmentation, brought up to date message by message.
//!
//! The stateless calls ([`Compactor::assess`], [`plan`](crate::plan::plan),
//! [`Compactor::begin`]) take the whole conversation every time: hashing it and walking it
//! costs time in proportion to its length on every turn, even when the token memo saves
//! the counting. A [`Session`] holds the conversation instead. [`Session::append`] hashes,
//! counts and segments only the new messages, and keeps the assessment current, so an
//! agent that checks its context before every model call pays for the new messages only:
//!
//! ```
//! use compactor::budget::BudgetConfig;
//! use compactor::engine::{CompactionConfig, Compactor, Trigger};
//! use compactor::extractive::Extractive;
//! use compactor::live::Session;
//! use compactor::message::Message;
//!
//! let compactor = Compactor::new(CompactionConfig {
//!     budget: BudgetConfig::for_model("gpt-4o"),
//!     ..CompactionConfig::default()
//! })?;
//! let mut session = Session::new(&compactor, "chat-42", vec![Message::system("s", "Be brief.")]);
//! session.append([Message::user("u1", "Hello"), Message::assistant("a1", "Hi.")]);
//! assert_eq!(session.assess().message_count, 3);
//! # struct MyClock;
//! # impl compactor::driver::Clock for MyClock {
//! #     fn now_ms(&self) -> u64 { 0 }
//! #     fn sleep_until(&self, _: u64) -> impl std::future::Future<Output = ()> { std::future::pending() }
//! # }
//! if session.assess().needs_compaction() {
//!     let clock = MyClock; // your runtime's clock: see `driver::Clock`
//!     let compacting = session.compact(Trigger::Proactive, &Extractive, &clock);
//!     let outcome = futures_executor::block_on(compacting)?;
//!     // `session.changes()` says which messages the run replaced.
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Every run still goes through the engine's one path: [`Session::compact`] is
//! [`Compactor::compact`] on the session's messages, and a caller that drives runs itself
//! calls [`Session::begin`], drives the [`Run`], and hands the outcome to
//! [`Session::apply`]. The results equal the stateless calls' on the same messages.

use std::ops::Range;

use crate::driver::{Clock, Summarize};
use crate::engine::{CompactError, Compactor, Outcome, Run, Status, Trigger};
use crate::hash::{ContentHash, message_hash};
use crate::message::Message;
use crate::overflow::{Assessment, MessageTokens, judge};
use crate::pin::{PinError, Pins};
use crate::plan::Plan;
use crate::policy::{self, Observed};
use crate::segment::{SegmentError, Segmenter};
use crate::select::{TailPolicy, select_tail};
use crate::tokens::Calibration;

/// What a compaction did to a session's messages, as a splice of the messages before it:
/// remove `delete_count` messages at `start`, insert `insert` there. Messages appended
/// while the run was under way come after and are not part of it.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize),
    serde(rename_all = "camelCase")
)]
pub struct Splice {
    /// The first message replaced.
    pub start: usize,
    /// How many messages were removed from `start`.
    pub delete_count: usize,
    /// The messages that take their place.
    pub insert: Vec<Message>,
}

impl Splice {
    /// Does the splice change nothing?
    pub fn is_empty(&self) -> bool {
        self.delete_count == 0 && self.insert.is_empty()
    }

    /// The range of the messages before that the splice replaces.
    pub fn deleted(&self) -> Range<usize> {
        self.start..self.start + self.delete_count
    }
}

/// One conversation kept inside the engine. See the [module docs](self).
#[derive(Debug)]
pub struct Session {
    compactor: Compactor,
    id: String,
    tail: TailPolicy,
    messages: Vec<Message>,
    hashes: Vec<ContentHash>,
    /// The assessment of `messages`, kept current by every append.
    assessment: Assessment,
    /// The calibration the assessment's counts were made with.
    calibration: Calibration,
    segmenter: Segmenter,
    changes: Option<Splice>,
    /// False once the session opted out: every message, appended ones too, is pinned.
    compactable: bool,
    /// Appends since the session was made (calls), and the tokens they added (each as
    /// [`policy::call_growth`] counts it): the growth per call the default policy weighs.
    growth: (u64, u64),
    /// Has a compaction been applied: the run outgrows its window, and will again.
    outgrown: bool,
}

impl Session {
    /// A session `id` of `compactor` (the id keys its circuit breaker and results, as in
    /// [`Compactor::begin`]), holding `messages`.
    pub fn new(compactor: &Compactor, id: &str, messages: Vec<Message>) -> Self {
        let budget = compactor.budget();
        let (signals, target) = judge(0, 0, budget);
        let mut session = Self {
            tail: TailPolicy::for_budget(compactor.config().keep_recent_turns, budget),
            compactor: compactor.clone(),
            id: id.to_owned(),
            messages: Vec::new(),
            hashes: Vec::new(),
            assessment: Assessment {
                total_tokens: compactor.accountant().total(&[]),
                message_count: 0,
                budget: budget.clone(),
                signals,
                target,
                messages: Vec::new(),
            },
            calibration: compactor.accountant().calibration(),
            segmenter: Segmenter::default(),
            changes: None,
            compactable: true,
            growth: (0, 0),
            outgrown: false,
        };
        session.append(messages);
        // The history it starts from is not a call's growth.
        session.growth = (0, 0);
        session.judge();
        session
    }

    /// The session id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The compactor the session runs on.
    pub fn compactor(&self) -> &Compactor {
        &self.compactor
    }

    /// The messages, in order.
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// How many messages.
    pub fn len(&self) -> usize {
        self.messages.len()
    }

    /// Does the session hold no message?
    pub fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }

    /// Adds messages at the end: only they are hashed, counted (through the compactor's
    /// memo) and segmented.
    pub fn append(&mut self, messages: impl IntoIterator<Item = Message>) {
        let start = self.messages.len();
        self.messages.extend(messages);
        // Summaries an earlier run wrote are known by their marker, as `begin` and every
        // plan know them: the handle's plan shows them summarized, not raw.
        crate::prune::recognize(&mut self.messages[start..]);
        if !self.compactable {
            for message in &mut self.messages[start..] {
                message.compactable = false;
            }
        }
        let new = &self.messages[start..];
        let hashes: Vec<ContentHash> = new.iter().map(message_hash).collect();
        let counts = self.compactor.accountant().count_hashed(new, &hashes);
        self.hashes.extend(hashes);
        self.segmenter.extend(new);
        let added: u64 = counts.iter().sum();
        self.assessment
            .messages
            .extend(
                new.iter()
                    .zip(counts)
                    .map(|(message, tokens)| MessageTokens {
                        id: message.id.clone(),
                        tokens,
                    }),
            );
        self.assessment.total_tokens += added;
        self.assessment.message_count = self.messages.len();
        if added > 0 {
            let counted = policy::call_growth(added, self.assessment.budget.target_tokens);
            self.growth = (self.growth.0 + 1, self.growth.1 + counted);
        }
        self.judge();
        // Counts made under another calibration than the assessment's: count again.
        if self.compactor.accountant().calibration() != self.calibration {
            self.recount();
        }
    }

    /// Sets the signals and the target from the totals, and the default policy's depth
    /// and deferral when it applies ([`crate::policy`]).
    fn judge(&mut self) {
        let observed = self.observed();
        let cut = observed.as_ref().map(|seen| self.cut(seen));
        let assessment = &mut self.assessment;
        (assessment.signals, assessment.target) = judge(
            assessment.total_tokens,
            assessment.message_count,
            &assessment.budget,
        );
        if let (Some(seen), Some((depth, trigger))) = (observed, cut) {
            assessment.target.tokens = depth;
            let signals = &mut assessment.signals;
            signals.over_trigger = seen.tokens > trigger;
            if signals.over_trigger
                && !signals.over_absolute_limit
                && !policy::pays(&seen, &self.compactor.config().prices, depth)
            {
                signals.over_trigger = false;
            }
        }
    }

    /// The default policy's cut: its depth, and the size above which it is made (the
    /// configured trigger, or earlier where that is cheaper, unless the caller set the
    /// trigger).
    fn cut(&self, seen: &Observed) -> (u64, u64) {
        let config = self.compactor.config();
        let depth = policy::depth(seen);
        let configured = self.assessment.budget.trigger_tokens;
        let trigger = if config.budget.trigger_ratio.is_some() || !self.outgrown {
            configured
        } else {
            policy::trigger(seen, &config.prices, depth, configured)
        };
        (depth, trigger)
    }

    /// What the default policy weighs, when it applies: the caller set no target, and
    /// the session has seen a call's growth.
    fn observed(&self) -> Option<Observed> {
        let config = self.compactor.config();
        let (calls, tokens) = self.growth;
        if config.budget.target_ratio.is_some() || calls == 0 {
            return None;
        }
        let stable = crate::task::prefix(&self.messages).end();
        let budget = &self.assessment.budget;
        Some(Observed {
            growth: tokens as f64 / calls as f64,
            stable: self
                .assessment
                .messages
                .iter()
                .take(stable)
                .map(|m| m.tokens)
                .sum(),
            tokens: self.assessment.total_tokens,
            target: budget.target_tokens,
            absolute: budget.absolute_limit,
            // The room a deep cut leaves its summary (and the summary's trail), within
            // the ceiling asked of the summarizer.
            summary: config
                .max_summary_tokens
                .min((budget.target_tokens as f64 * policy::SUMMARY_SHARE) as u64),
            keep_turns: config.keep_recent_turns,
            newest: crate::task::newest_turn(&self.messages).map_or(0, |start| {
                self.assessment.messages[start..]
                    .iter()
                    .map(|m| m.tokens)
                    .sum()
            }),
        })
    }

    /// The handle runs go through: the policy's depth when it applies.
    fn runner(&self) -> Compactor {
        match self.observed() {
            Some(seen) => {
                let (depth, trigger) = self.cut(&seen);
                self.compactor.for_policy(depth, trigger, seen.summary)
            }
            None => self.compactor.clone(),
        }
    }

    /// Counts every message again (through the memo): the calibration changed.
    fn recount(&mut self) {
        let accountant = self.compactor.accountant();
        self.calibration = accountant.calibration();
        let counts = accountant.count_hashed(&self.messages, &self.hashes);
        self.assessment.total_tokens = accountant.total(&counts);
        for (entry, tokens) in self.assessment.messages.iter_mut().zip(counts) {
            entry.tokens = tokens;
        }
        self.judge();
    }

    /// The assessment of the messages: the same as [`Compactor::assess`] gives for them,
    /// without looking at any message again (unless the calibration changed since the last
    /// call).
    pub fn assess(&mut self) -> &Assessment {
        if self.compactor.accountant().calibration() != self.calibration {
            self.recount();
        }
        &self.assessment
    }

    /// The plan of the messages: the same as [`plan`](crate::plan::plan) gives for them
    /// with the compactor's tail policy, from the kept segmentation.
    pub fn plan(&mut self) -> Result<Plan, SegmentError> {
        let segmentation = self.segmenter.segmentation()?;
        let assessment = self.assess().clone();
        let tail = select_tail(&segmentation, &assessment.message_tokens(), &self.tail);
        Ok(Plan {
            assessment,
            segmentation,
            tail,
        })
    }

    /// Starts a run over the messages ([`Compactor::begin`]): drive it, then hand its
    /// outcome to [`Session::apply`].
    pub fn begin(&self, trigger: Trigger, now_ms: u64) -> Result<Run, CompactError> {
        self.runner()
            .begin(&self.id, self.messages.clone(), trigger, now_ms)
    }

    /// Compacts the messages with `summarizer` ([`Compactor::compact`]) and applies the
    /// outcome (see [`Session::apply`]). On error nothing changes.
    pub async fn compact<S: Summarize, C: Clock>(
        &mut self,
        trigger: Trigger,
        summarizer: &S,
        clock: &C,
    ) -> Result<Outcome, CompactError> {
        let outcome = self
            .runner()
            .compact(&self.id, self.messages.clone(), trigger, summarizer, clock)
            .await?;
        self.apply(&outcome, self.messages.len());
        Ok(outcome)
    }

    /// Replaces the first `before` messages (those the run started from: the session's
    /// length when [`Session::begin`] was called) with the outcome's, keeping what was
    /// appended since after them, and records the change as [`Session::changes`]. An
    /// outcome that changed nothing leaves the messages as they are and records an empty
    /// splice. Returns the splice.
    pub fn apply(&mut self, outcome: &Outcome, before: usize) -> &Splice {
        let before = before.min(self.messages.len());
        let changed = matches!(outcome.status, Status::Compacted { .. });
        let splice = if changed {
            splice(&self.messages[..before], &outcome.messages)
        } else {
            Splice {
                start: before,
                delete_count: 0,
                insert: Vec::new(),
            }
        };
        if !splice.is_empty() {
            let appended = self.messages.split_off(before);
            let mut messages = std::mem::take(&mut self.messages);
            messages.splice(splice.deleted(), splice.insert.iter().cloned());
            messages.extend(appended);
            self.reset(messages);
        }
        self.changes.insert(splice)
    }

    /// Holds `messages` from now on, everything about them computed afresh.
    fn reset(&mut self, messages: Vec<Message>) {
        let changes = self.changes.take();
        let compactable = self.compactable;
        let growth = self.growth;
        *self = Session::new(&self.compactor, &self.id, messages);
        self.changes = changes;
        self.compactable = compactable;
        self.growth = growth;
        self.outgrown = true;
        self.judge();
    }

    /// Pins messages (see [`crate::pin`]): `pins.indices` count from `messages()[given]`
    /// (0 unless a format reads messages from outside its array). A pin follows its
    /// message, not its index: compactions that move it keep it pinned. With
    /// `pins.compactable` false the session opts out for good: every message, those
    /// appended later too, is pinned, and runs are only assessed. On error nothing changes.
    pub fn pin(&mut self, pins: &Pins, given: usize) -> Result<(), PinError> {
        pins.apply(&mut self.messages, given)?;
        self.compactable &= pins.compactable;
        Ok(())
    }

    /// Has the session opted out of compaction?
    pub fn compactable(&self) -> bool {
        self.compactable
    }

    /// The change the last applied compaction made, as a splice of the messages before
    /// it; `None` before the first.
    pub fn changes(&self) -> Option<&Splice> {
        self.changes.as_ref()
    }
}

/// The splice that turns `before` into `after`: the common prefix and suffix (same id, same
/// content) stay.
fn splice(before: &[Message], after: &[Message]) -> Splice {
    let same = |a: &Message, b: &Message| a.id == b.id && a == b;
    let prefix = before
        .iter()
        .zip(after)
        .take_while(|(a, b)| same(a, b))
        .count();
    let suffix = before[prefix..]
        .iter()
        .rev()
        .zip(after[prefix..].iter().rev())
        .take_while(|(a, b)| same(a, b))
        .count();
    Splice {
        start: prefix,
        delete_count: before.len() - prefix - suffix,
        insert: after[prefix..after.len() - suffix].to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Step;
    use crate::extractive::Extractive;
    use crate::message::ToolCall;
    use crate::overflow::assess;
    use crate::plan::plan;

    fn agent(turns: usize) -> Vec<Message> {
        let mut messages = vec![Message::system("s", "You are a coding agent.")];
        messages.push(Message::user("u", "Fix the failing test."));
        for i in 0..turns {
            let call = ToolCall {
                id: format!("c{i}"),
                name: "bash".into(),
                arguments: format!("{{\"cmd\":\"cat src/file{i}.rs\"}}"),
            };
            messages.push(Message::assistant_calls(
                format!("a{i}").as_str(),
                None,
                [call],
            ));
            let output = format!("fn f{i}() {{ {} }}\n", "let x = 1; ".repeat(40));
            messages.push(Message::tool_result(
                format!("t{i}").as_str(),
                format!("c{i}"),
                &output,
            ));
        }
        messages
    }

    /// A compactor with the target set by the caller: the default policy stays out, and
    /// the session's assessment is the stateless calls'.
    fn explicit(window: u64) -> Compactor {
        let mut config = Compactor::for_window(window).config().clone();
        config.budget.target_ratio = Some(crate::budget::DEFAULT_TARGET_RATIO);
        Compactor::new(config).expect("valid")
    }

    #[test]
    fn appending_keeps_the_assessment_and_plan_of_the_stateless_calls() {
        let compactor = explicit(100_000);
        let messages = agent(30);
        let mut session = Session::new(&compactor, "s", messages[..5].to_vec());
        for end in 6..=messages.len() {
            session.append([messages[end - 1].clone()]);
            let prefix = &messages[..end];
            assert_eq!(*session.assess(), compactor.assess(prefix), "at {end}");
            let policy = TailPolicy::for_budget(4, compactor.budget());
            let expected = plan(compactor.accountant(), prefix, compactor.budget(), &policy);
            assert_eq!(session.plan(), expected, "at {end}");
        }
    }

    #[test]
    fn calibration_after_appending_is_followed() {
        let compactor = Compactor::for_window(100_000);
        let messages = agent(5);
        let mut session = Session::new(&compactor, "s", messages.clone());
        compactor.accountant().calibrate(&messages, 10_000);
        assert_eq!(
            *session.assess(),
            assess(compactor.accountant(), &messages, compactor.budget())
        );
    }

    #[test]
    fn an_unpaired_result_fails_the_plan_but_not_the_assessment() {
        let compactor = Compactor::for_window(100_000);
        let mut session = Session::new(&compactor, "s", agent(2));
        session.append([Message::tool_result("x", "nope", "late")]);
        assert!(matches!(
            session.plan(),
            Err(SegmentError::OrphanToolResult { .. })
        ));
        assert_eq!(session.assess().message_count, 7);
    }

    /// A clock at 0 that never fires: the offline summarizer answers at once.
    struct Stopped;

    impl crate::driver::Clock for Stopped {
        fn now_ms(&self) -> u64 {
            0
        }

        fn sleep_until(&self, _: u64) -> impl std::future::Future<Output = ()> {
            std::future::pending()
        }
    }

    #[test]
    fn compaction_is_applied_and_recorded_as_a_splice() {
        let compactor = explicit(3_000);
        let messages = agent(40);
        let mut session = Session::new(&compactor, "s", messages.clone());
        assert!(session.assess().needs_compaction());
        let clock = Stopped;
        let outcome =
            futures_executor::block_on(session.compact(Trigger::Proactive, &Extractive, &clock))
                .expect("compacts");
        assert_eq!(session.messages(), outcome.messages);
        let splice = session.changes().expect("recorded").clone();
        assert!(!splice.is_empty());
        let mut applied = messages;
        applied.splice(splice.deleted(), splice.insert);
        assert_eq!(applied, outcome.messages);
        // The session goes on from the compacted messages as the stateless calls would.
        session.append([Message::user("late", "and now?")]);
        let mut expected = outcome.messages.clone();
        expected.push(Message::user("late", "and now?"));
        assert_eq!(*session.assess(), compactor.assess(&expected));
    }

    #[test]
    fn the_default_policy_cuts_deep_once_it_has_seen_growth() {
        let compactor = Compactor::for_window(6_000);
        let messages = agent(40);
        let mut session = Session::new(&compactor, "s", messages[..2].to_vec());
        // Before any growth, the configured target.
        assert_eq!(
            session.assess().target.tokens,
            compactor.budget().target_tokens
        );
        let mut compactions = 0;
        for pair in messages[2..].chunks(2) {
            session.append(pair.iter().cloned());
            if session.assess().needs_compaction() {
                let target = session.assess().target.tokens;
                // Stable prefix + summary room + four calls of growth: far below 0.75.
                assert!(target < compactor.budget().target_tokens / 2, "{target}");
                let outcome = futures_executor::block_on(session.compact(
                    Trigger::Proactive,
                    &Extractive,
                    &Stopped,
                ))
                .expect("compacts");
                assert!(matches!(outcome.status, Status::Compacted { .. }));
                assert!(session.assess().total_tokens <= target * 11 / 10);
                compactions += 1;
            }
        }
        // Cutting to 0.75 would take six or more.
        assert!((1..=2).contains(&compactions), "{compactions}");
    }

    #[test]
    fn once_outgrown_the_policy_cuts_where_a_cut_is_cheapest() {
        let compactor = Compactor::for_window(24_000);
        let trigger = compactor.budget().trigger_tokens;
        let messages = agent(200);
        let mut session = Session::new(&compactor, "s", messages[..2].to_vec());
        let mut cuts_at = Vec::new();
        for pair in messages[2..].chunks(2) {
            session.append(pair.iter().cloned());
            if session.assess().needs_compaction() {
                cuts_at.push(session.assess().total_tokens);
                futures_executor::block_on(session.compact(
                    Trigger::Proactive,
                    &Extractive,
                    &Stopped,
                ))
                .expect("compacts");
            }
        }
        assert!(cuts_at.len() >= 2, "{cuts_at:?}");
        // The first cut waits for the configured trigger: a run that never gets there
        // is never compacted.
        assert!(cuts_at[0] > trigger, "{cuts_at:?} {trigger}");
        // Later ones come earlier, where rewriting the prompt costs less than reading
        // it whole until the trigger.
        assert!(
            cuts_at[1..].iter().all(|&at| at < trigger * 9 / 10),
            "{cuts_at:?} {trigger}"
        );
    }

    #[test]
    fn one_oversized_output_does_not_set_the_depth_for_the_rest_of_the_session() {
        let compactor = Compactor::for_window(20_000);
        let messages = agent(20);
        let mut steady = Session::new(&compactor, "s", messages[..2].to_vec());
        let mut spiked = Session::new(&compactor, "t", messages[..2].to_vec());
        let dump = Message::user("dump", "let x = 1; ".repeat(6_000));
        spiked.append([dump]);
        for pair in messages[2..].chunks(2) {
            steady.append(pair.iter().cloned());
            spiked.append(pair.iter().cloned());
        }
        let target = compactor.budget().target_tokens;
        let (calm, after) = (steady.assess().target.tokens, spiked.assess().target.tokens);
        // The dump counts for a fifth of the target, spread over the calls: four calls'
        // worth of tail grows by less than that, where counted whole it would reach the
        // configured target.
        assert!(calm < target / 2, "{calm} of {target}");
        assert!(after > calm, "{after} vs {calm}");
        assert!(after <= calm + target / 5, "{after} vs {calm} of {target}");
    }

    #[test]
    fn a_large_newest_output_leaves_the_summaries_their_room() {
        let compactor = Compactor::for_window(24_000);
        let mut messages = fact_rich(60, 30);
        // The newest call read a large file: it stays verbatim whatever the cut.
        let call = ToolCall {
            id: "big".into(),
            name: "bash".into(),
            arguments: "{\"cmd\":\"cat src/big.rs\"}".into(),
        };
        messages.push(Message::assistant_calls("ab", None, [call]));
        let listing: String = (0..900)
            .map(|j| format!("{j}: let v{j} = {j};\n"))
            .collect();
        messages.push(Message::tool_result("tb", "big", &listing));
        let mut session = Session::new(&compactor, "s", messages[..2].to_vec());
        for pair in messages[2..].chunks(2) {
            session.append(pair.iter().cloned());
        }
        assert!(session.assess().needs_compaction());
        let cut =
            futures_executor::block_on(session.compact(Trigger::Proactive, &Extractive, &Stopped))
                .expect("compacts");
        let accountant = compactor.accountant();
        let newest = accountant.message_tokens(messages.last().expect("output"));
        assert_eq!(cut.messages.last(), messages.last(), "kept verbatim");
        let summaries: u64 = cut
            .messages
            .iter()
            .filter(|m| m.is_compaction())
            .map(|m| accountant.message_tokens(m))
            .sum();
        // The summaries get what a cut leaves them beside any newest turn, however large.
        let room = (compactor.budget().target_tokens as f64 * policy::SUMMARY_SHARE) as u64;
        let after: u64 = cut
            .messages
            .iter()
            .map(|m| accountant.message_tokens(m))
            .sum();
        assert!(newest > room, "{newest}");
        assert!(summaries > room / 4, "summaries {summaries} of {room}");
        assert!(after > newest + room * 3 / 4, "{after} beside {newest}");
    }

    #[test]
    fn a_later_cut_keeps_the_summaries_their_room_beside_large_recent_calls() {
        let compactor = Compactor::for_window(24_000);
        let accountant = compactor.accountant();
        let room = (compactor.budget().target_tokens as f64 * policy::SUMMARY_SHARE) as u64;
        let messages = fact_rich(120, 30);
        let mut session = Session::new(&compactor, "s", messages[..2].to_vec());
        let mut cuts = 0;
        for pair in messages[2..].chunks(2) {
            session.append(pair.iter().cloned());
            if session.assess().needs_compaction() {
                futures_executor::block_on(session.compact(
                    Trigger::Proactive,
                    &Extractive,
                    &Stopped,
                ))
                .expect("compacts");
                cuts += 1;
            }
        }
        assert!(cuts >= 2, "{cuts} cuts");
        // After the later cuts, the history older than the raw tail is held by summaries
        // in the room the policy's depth was made of, not squeezed for a longer tail.
        let summaries: u64 = session
            .messages()
            .iter()
            .filter(|m| m.is_compaction())
            .map(|m| accountant.message_tokens(m))
            .sum();
        assert!(summaries > room / 2, "summaries {summaries} of {room}");
    }

    /// The share of the summaries' tokens in `messages` their summarizer wrote (the rest
    /// is their trails).
    fn prose_share(compactor: &Compactor, messages: &[Message]) -> f64 {
        let accountant = compactor.accountant();
        let (mut prose, mut whole) = (0, 0);
        for summary in messages.iter().filter(|m| m.is_compaction()) {
            let text = summary
                .compaction
                .as_ref()
                .expect("a summary")
                .summary_text
                .clone();
            prose += accountant.text_tokens(crate::trail::prose(&text));
            whole += accountant.text_tokens(&text);
        }
        assert!(whole > 0, "no summary");
        prose as f64 / whole as f64
    }

    /// A tool agent's turns whose every message names files and line numbers: facts to
    /// spare for any trail.
    fn fact_rich(turns: usize, lines: usize) -> Vec<Message> {
        let mut messages = agent(0);
        for i in 0..turns {
            let call = ToolCall {
                id: format!("c{i}"),
                name: "bash".into(),
                arguments: format!("{{\"cmd\":\"grep -rn todo src/part{i}\"}}"),
            };
            // Reasoning LIGHT cannot clear: the cut needs summaries.
            let plan: String = (0..8)
                .map(|j| format!("Next: src/part{i}/mod{j}.rs line {}. ", 500 + 11 * j + i))
                .collect();
            messages.push(Message::assistant_calls(
                format!("a{i}").as_str(),
                Some(plan.as_str()),
                [call],
            ));
            let output: String = (0..lines)
                .map(|j| {
                    format!(
                        "src/part{i}/mod{j}.rs:{}: // todo: handle case {j}\n",
                        100 + 37 * j + i
                    )
                })
                .collect();
            messages.push(Message::tool_result(
                format!("t{i}").as_str(),
                format!("c{i}"),
                &output,
            ));
        }
        messages
    }

    /// A summarizer that writes all it is asked for: what a model that fills its room
    /// does.
    struct Filling;

    impl crate::driver::Summarize for Filling {
        async fn summarize(
            &self,
            request: &crate::engine::SummaryRequest,
        ) -> Result<String, crate::summary::SummaryFailure> {
            Ok("- noted ".repeat((request.max_output_tokens / 3).max(1) as usize))
        }
    }

    #[test]
    fn a_cut_under_the_policy_leaves_its_summary_mostly_to_the_trail() {
        let messages = fact_rich(80, 40);
        let compactor = Compactor::for_window(24_000);
        let mut session = Session::new(&compactor, "s", messages[..2].to_vec());
        for pair in messages[2..].chunks(2) {
            session.append(pair.iter().cloned());
            if session.assess().needs_compaction() {
                break;
            }
        }
        assert!(session.assess().needs_compaction());
        let depth = session.assess().target.tokens;
        let cut =
            futures_executor::block_on(session.compact(Trigger::Proactive, &Filling, &Stopped))
                .expect("compacts");
        // The same conversation cut to the same depth with the target given: sized for the
        // target's band, half the room asked of the summarizer.
        let mut config = compactor.config().clone();
        config.budget.target_ratio = Some(depth as f64 / compactor.budget().absolute_limit as f64);
        let band = Compactor::new(config).expect("valid");
        let before = &messages[..cut.report.messages_before];
        let banded = futures_executor::block_on(band.compact(
            "b",
            before.to_vec(),
            Trigger::Proactive,
            &Filling,
            &Stopped,
        ))
        .expect("compacts");
        let (thrift, for_band) = (
            prose_share(&compactor, &cut.messages),
            prose_share(&band, &banded.messages),
        );
        assert!(thrift < 0.3, "{thrift}");
        assert!(for_band > thrift + 0.15, "{for_band} vs {thrift}");
    }

    #[test]
    fn a_cut_under_the_policy_reads_long_messages_clipped_to_the_answer() {
        let mut messages = agent(0);
        for i in 0..60 {
            let notes: String = (0..120)
                .map(|j| format!("Step {j} of pass {i} checks the parser again. "))
                .collect();
            messages.push(Message::assistant(format!("a{i}").as_str(), notes.as_str()));
            messages.push(Message::user(format!("u{i}").as_str(), "Go on."));
        }
        // What the first request reads, and the tokens of the messages it covers.
        let first_request = |summarize_outputs: bool| {
            let mut config = Compactor::for_window(24_000).config().clone();
            config.summarize_outputs = summarize_outputs;
            let compactor = Compactor::new(config).expect("valid");
            let mut session = Session::new(&compactor, "s", messages[..2].to_vec());
            for pair in messages[2..].chunks(2) {
                session.append(pair.iter().cloned());
                if session.assess().needs_compaction() {
                    break;
                }
            }
            let mut run = session.begin(Trigger::Proactive, 0).expect("begins");
            let Step::Summarize(requests) = run.poll() else {
                panic!("no request");
            };
            let counts = session.assess().message_tokens();
            let tokens: std::collections::HashMap<&str, u64> = session
                .messages()
                .iter()
                .zip(counts)
                .map(|(m, t)| (m.id.as_str(), t))
                .collect();
            let request = &requests[0];
            let covered: u64 = request.covers.iter().map(|id| tokens[id.as_str()]).sum();
            (request.input_tokens, covered)
        };
        // Each long message is read at the answer's size: a fraction of what it covers.
        let (read, covered) = first_request(false);
        assert!(read * 3 < covered, "read {read} of {covered}");
        // Asked to read outputs whole, the summarizer reads every message whole.
        let (read, covered) = first_request(true);
        assert!(read > covered, "read {read} of {covered}");
    }

    #[test]
    fn messages_appended_during_a_run_stay_after_its_result() {
        let compactor = Compactor::for_window(3_000);
        let mut session = Session::new(&compactor, "s", agent(40));
        let before = session.len();
        let mut run = session.begin(Trigger::Proactive, 0).expect("begins");
        session.append([Message::user("during", "meanwhile")]);
        let clock = Stopped;
        let outcome = futures_executor::block_on(crate::driver::drive(
            &mut run,
            &Extractive,
            &clock,
            &mut |_| {},
        ))
        .expect("compacts");
        let splice = session.apply(&outcome, before).clone();
        assert!(splice.deleted().end <= before);
        assert_eq!(
            session.messages().last().map(|m| m.id.as_str()),
            Some("during")
        );
        assert_eq!(session.len(), outcome.messages.len() + 1);
    }
}
