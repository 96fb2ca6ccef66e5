//! Walking the ladder: a level is planned (by [`crate::ladder`]), served from the cache or
//! asked of the summarizer, and applied when its jobs are settled; MAXIMUM's failure
//! falls back to the offline summarizer or to the best result that fits.

use crate::engine::jobs::{Job, JobState, Known, PartRef};
use crate::engine::run::{LevelRun, Run};
use crate::engine::{CompactError, Event, LevelReport, SummaryFailure};
use crate::ladder::{
    Fold, Level, LevelContext, LightPlan, MIN_CLIPPED_TOKENS, clips, plan_light, plan_moderate,
    plan_running, predict,
};
use crate::message::{Message, MessageId};
use crate::observation::observations;
use crate::prompt::PROMPT_VERSION;
use crate::prune::{
    apply_clearings, apply_summaries, cut_trail, shrink, summary_message, trail_tokens,
};
use crate::segment::segment;
use crate::standing::{Instruction, block_tokens, instructions};
use crate::tokens::TokenAccountant;
use crate::trail::fact_set;

/// The most rounds MODERATE plans: when the summaries came back larger than expected, it
/// summarizes the next-oldest segments, with the estimate the answers corrected.
const MODERATE_ROUNDS: u32 = 4;

/// What planning a level gave.
enum Planned {
    Jobs(Vec<Job>),
    Skipped { predicted: u64 },
    Failed(CompactError),
}

/// What a level's planner proposed.
enum Plan {
    Clear(LightPlan),
    /// The folds, which messages are observations and the user's instructions (as the
    /// planner saw them).
    Fold(Vec<Fold>, Vec<bool>, Vec<Instruction>),
    /// Even at their expected size the summaries leave this many tokens, over the target.
    Hopeless(u64),
}

impl Run {
    pub(super) fn start_next_level(&mut self) {
        let Some(&level) = Level::ALL.get(self.next_level) else {
            self.finish(self.tokens());
            return;
        };
        self.next_level += 1;
        let tokens = self.tokens();
        self.events.push(Event::LevelEntered { level, tokens });
        let report = LevelReport {
            level,
            tokens_before: tokens,
            tokens_after: tokens,
            requests: 0,
            cache_hits: 0,
            failures: 0,
        };
        match self.plan(level) {
            Planned::Jobs(jobs) => {
                self.level = Some(LevelRun {
                    level,
                    jobs,
                    report,
                    round: 1,
                });
                self.serve_from_cache_or_queue();
            }
            Planned::Skipped { predicted } => {
                self.events.push(Event::LevelSkipped { level, predicted });
                self.events.push(Event::LevelLeft {
                    level,
                    tokens_before: tokens,
                    tokens_after: tokens,
                });
                self.report.levels.push(report);
            }
            Planned::Failed(error) => self.fail(error),
        }
    }

    /// Plans `level` on the conversation as it is now: LIGHT's clearings are applied at
    /// once; the summaries become jobs. A summarizing level that cannot reach the target
    /// even if every summary comes back at its expected size would only feed the next
    /// level: it is skipped, and its requests saved. Before a running summary, what stays
    /// verbatim but alone exceeds its share is clipped ([`clips`]).
    fn plan(&mut self, level: Level) -> Planned {
        let accountant = self.compactor.accountant.clone();
        if level >= Level::Aggressive {
            match self.in_context(clips) {
                Ok(clips) => {
                    for (i, tokens) in clips {
                        shrink(&mut self.current[i], &accountant, tokens);
                    }
                }
                Err(error) => return Planned::Failed(error),
            }
        }
        let sizing = self.compactor.sizing;
        let planned = self.in_context(|ctx| {
            let full;
            let ctx = if level == Level::Moderate && sizing.full_summaries {
                full = LevelContext {
                    summary_ratio: 1.0,
                    ..*ctx
                };
                &full
            } else {
                ctx
            };
            let folds = match level {
                Level::Light => return Plan::Clear(plan_light(ctx, &accountant)),
                Level::Moderate => plan_moderate(ctx),
                Level::Aggressive | Level::Maximum => plan_running(ctx, level),
            };
            let predicted = predict(ctx, &folds);
            if level != Level::Maximum && !folds.is_empty() && !predicted.meets(ctx) {
                return Plan::Hopeless(predicted.tokens);
            }
            Plan::Fold(folds, ctx.observed.to_vec(), ctx.instructions.to_vec())
        });
        let (folds, observed, instructions) = match planned {
            Ok(Plan::Fold(folds, observed, instructions)) => (folds, observed, instructions),
            Ok(Plan::Hopeless(predicted)) => return Planned::Skipped { predicted },
            Ok(Plan::Clear(light)) => {
                self.clear(&light, &accountant);
                return Planned::Jobs(Vec::new());
            }
            Err(error) => return Planned::Failed(error),
        };
        let config = &self.compactor.config;
        let mut folded = vec![false; self.current.len()];
        for &i in folds.iter().flat_map(|f| f.replace.iter()) {
            folded[i] = true;
        }
        let known = Known {
            kept: fact_set(
                self.current
                    .iter()
                    .zip(&folded)
                    .filter(|(_, f)| !**f)
                    .map(|(m, _)| m),
            ),
            originals: self.original.iter().map(|m| (&m.id, m)).collect(),
            instructions,
            observed,
            sizing,
        };
        let jobs = folds
            .into_iter()
            .map(|fold| {
                Job::new(
                    level,
                    fold,
                    &self.current,
                    &known,
                    &self.session,
                    config,
                    &accountant,
                )
            })
            .collect();
        Planned::Jobs(jobs)
    }

    /// Applies LIGHT's clearings. Should every summary fail, those it held back are what
    /// the run falls back to, when they fit.
    fn clear(&mut self, light: &LightPlan, accountant: &TokenAccountant) {
        apply_clearings(&mut self.current, &light.clear);
        if light.held_back.is_empty() {
            return;
        }
        let mut fallback = self.current.clone();
        apply_clearings(&mut fallback, &light.held_back);
        let tokens = accountant.total(&accountant.count_messages(&fallback));
        if self.better_fallback(tokens) {
            self.best_fit = Some((fallback, tokens));
        }
    }

    /// Calls `f` with the planners' view of the conversation as it is now.
    fn in_context<T>(&self, f: impl FnOnce(&LevelContext<'_>) -> T) -> Result<T, CompactError> {
        let accountant = &self.compactor.accountant;
        let counts = accountant.count_messages(&self.current);
        let segmentation = segment(&self.current).map_err(CompactError::InvalidConversation)?;
        let observed = observations(&segmentation, &self.current);
        let said = instructions(&self.current.iter().collect::<Vec<_>>(), |i| {
            observed.get(i).is_some_and(|&o| o)
        });
        let standing = block_tokens(&said, self.current.len(), |text| {
            accountant.text_tokens(text)
        });
        Ok(f(&LevelContext {
            messages: &self.current,
            counts: &counts,
            total: accountant.total(&counts),
            segmentation: &segmentation,
            config: &self.compactor.config,
            budget: &self.compactor.budget,
            target: self.target,
            summary_ratio: self.summary_ratio,
            summary_room: self.compactor.summary_room,
            observed: &observed,
            instructions: &said,
            standing: &standing,
        }))
    }

    /// Serves what the cache has; queues the rest's parts for handing out.
    fn serve_from_cache_or_queue(&mut self) {
        let Some(level) = self.level.as_mut() else {
            return;
        };
        let mut shared = self.compactor.shared();
        for (j, job) in level.jobs.iter_mut().enumerate() {
            if let Some(text) = shared.cache.get(&job.cache_key).cloned() {
                level.report.cache_hits += 1;
                self.report.cache_hits += 1;
                self.events.push(Event::CacheHit {
                    level: level.level,
                    covers: job.covers.len(),
                });
                job.state = JobState::Done(text);
            } else {
                self.queue
                    .extend((0..job.chunks.len()).map(|c| (j, PartRef::Chunk(c))));
            }
        }
    }

    pub(super) fn end_level(&mut self) {
        let Some(mut level_run) = self.level.take() else {
            return;
        };
        let level = level_run.level;
        let accountant = self.compactor.accountant.clone();
        let mut replacements: Vec<(Vec<usize>, Message)> = Vec::new();
        let mut written: Vec<MessageId> = Vec::new();
        let mut failed = None;
        for job in &level_run.jobs {
            match &job.state {
                JobState::Done(text) => {
                    let text = summary_text(job, text, &accountant);
                    self.observe_summary(accountant.text_tokens(&text), job.max_output_tokens);
                    let message = summary_message(
                        &text,
                        job.covers.clone(),
                        level,
                        "pending",
                        PROMPT_VERSION,
                    );
                    self.created.push(message.id.clone());
                    written.push(message.id.clone());
                    replacements.push((job.replace.clone(), message));
                }
                JobState::Failed(failure) if level == Level::Maximum => {
                    failed = Some(failure.clone());
                }
                JobState::Failed(failure) => {
                    self.events.push(Event::FallbackTaken {
                        level,
                        kept: job.replace.len(),
                        reason: failure.to_string(),
                    });
                }
                JobState::Open => {}
            }
        }
        if let Some(failure) = failed {
            self.maximum_failed(level_run, failure);
            return;
        }
        // Another round only after a round that went through: a failed summary's segments
        // would be asked for again.
        let round_went_through = !replacements.is_empty()
            && level_run
                .jobs
                .iter()
                .all(|job| matches!(job.state, JobState::Done(_)));
        let replacements = if level == Level::Moderate {
            self.just_enough(replacements, &accountant)
        } else {
            replacements
        };
        apply_summaries(&mut self.current, replacements);
        if level >= Level::Aggressive {
            self.cut_overruns(&written, &accountant);
        }
        if level == Level::Moderate
            && round_went_through
            && level_run.round < MODERATE_ROUNDS
            && !self.target.is_met(self.tokens(), self.current.len())
            && let Planned::Jobs(jobs) = self.plan(level)
            && !jobs.is_empty()
        {
            level_run.jobs = jobs;
            level_run.round += 1;
            self.level = Some(level_run);
            self.serve_from_cache_or_queue();
            return;
        }
        if level == Level::Maximum {
            self.clip_oversized();
        }
        let tokens = self.leave(level_run.report);
        if self.better_fallback(tokens) {
            self.best_fit = Some((self.current.clone(), tokens));
        }
        if self.target.is_met(tokens, self.current.len()) || level == Level::Maximum {
            self.finish(tokens);
        }
    }

    /// Ends a level: its report takes the tokens now, and `LevelLeft` says so. Returns
    /// the tokens.
    fn leave(&mut self, mut report: LevelReport) -> u64 {
        let tokens = self.tokens();
        report.tokens_after = tokens;
        self.events.push(Event::LevelLeft {
            level: report.level,
            tokens_before: report.tokens_before,
            tokens_after: tokens,
        });
        self.report.levels.push(report);
        tokens
    }

    /// MAXIMUM's summary failed. With `extractive_fallback` the offline summarizer writes
    /// it instead; else an earlier level's result that fits the absolute limit is kept
    /// (target not met); else the run fails loudly.
    fn maximum_failed(&mut self, mut level_run: LevelRun, failure: SummaryFailure) {
        let level = level_run.level;
        if self.compactor.config.extractive_fallback && !self.offline {
            self.offline = true;
            self.summarizer_failed = true;
            self.count_failure();
            self.report.extractive_fallback = true;
            self.events.push(Event::ExtractiveFallback {
                level: Some(level),
                reason: failure.to_string(),
            });
            for (j, job) in level_run.jobs.iter_mut().enumerate() {
                if matches!(job.state, JobState::Failed(_)) {
                    job.state = JobState::Open;
                    job.reduce = None;
                    for chunk in &mut job.chunks {
                        chunk.result = None;
                    }
                    self.queue
                        .extend((0..job.chunks.len()).map(|c| (j, PartRef::Chunk(c))));
                }
            }
            self.level = Some(level_run);
            return;
        }
        if let Some((best, _)) = self.best_fit.take() {
            self.events.push(Event::FallbackTaken {
                level,
                kept: level_run.jobs.iter().map(|j| j.replace.len()).sum(),
                reason: failure.to_string(),
            });
            self.current = best;
            let tokens = self.leave(level_run.report);
            self.finish(tokens);
            return;
        }
        self.fail(CompactError::SummaryFailed { level, failure });
    }

    /// AGGRESSIVE's summaries can come back a little longer than planned (the engine's
    /// estimate of its framing and of the trail it appends is close, not exact), landing
    /// the level a few tokens over its target, where MAXIMUM would fold the newest turns
    /// to make up for it; MAXIMUM's would miss the target. When the trails those summaries
    /// carry cover what is over, their entries give way instead, the least touched since
    /// first ([`cut_trail`]), each trail in proportion to its size. What a summarizer wrote
    /// and the user's instructions are never cut here: more over than the trails hold, or
    /// over the message count, is the next level's to meet.
    fn cut_overruns(&mut self, summaries: &[MessageId], accountant: &TokenAccountant) {
        for _ in 0..3 {
            let excess = self.tokens().saturating_sub(self.target.tokens);
            if excess == 0 || !self.target.is_met(self.target.tokens, self.current.len()) {
                return;
            }
            let sized: Vec<(usize, u64, u64)> = self
                .current
                .iter()
                .enumerate()
                .filter(|(_, message)| summaries.contains(&message.id))
                .map(|(i, message)| {
                    let trail = trail_tokens(message, accountant);
                    (i, accountant.message_tokens(message), trail)
                })
                .filter(|&(_, _, trail)| trail > 0)
                .collect();
            let held: u64 = sized.iter().map(|&(_, _, trail)| trail).sum();
            if held < excess {
                return;
            }
            for (i, tokens, trail) in sized {
                let cut = excess.saturating_mul(trail).div_ceil(held);
                cut_trail(&mut self.current[i], accountant, tokens.saturating_sub(cut));
            }
        }
    }

    /// MODERATE's summaries, oldest first, as many as the target needs: summaries that came
    /// back smaller than planned leave the newest segments unneeded, and those stay raw
    /// (context the budget has room for is kept; their answers stay in the cache).
    fn just_enough(
        &self,
        mut replacements: Vec<(Vec<usize>, Message)>,
        accountant: &TokenAccountant,
    ) -> Vec<(Vec<usize>, Message)> {
        crate::sort::sort_by_key(&mut replacements, |(replace, _)| replace.first().copied());
        // What each summary saves: tokens, and messages.
        let savings: Vec<(u64, usize)> = replacements
            .iter()
            .map(|(replace, summary)| {
                let folded: u64 = replace
                    .iter()
                    .filter_map(|&i| self.current.get(i))
                    .map(|m| accountant.message_tokens(m))
                    .sum();
                (
                    folded.saturating_sub(accountant.message_tokens(summary)),
                    replace.len().saturating_sub(1),
                )
            })
            .collect();
        let mut tokens = self.tokens();
        let mut count = self.current.len();
        let mut needed = 0;
        for &(saved, merged) in &savings {
            if self.target.is_met(tokens, count) {
                break;
            }
            tokens = tokens.saturating_sub(saved);
            count = count.saturating_sub(merged);
            needed += 1;
        }
        let needed = needed.max(1).min(savings.len());
        // One segment may have saved most of it (a message far larger than the rest): the
        // older ones before it stay raw when the target still holds without folding them,
        // the newest of them first.
        let mut applied = vec![true; needed];
        for at in (0..needed).rev() {
            let (saved, merged) = savings[at];
            if applied.iter().filter(|&&a| a).count() > 1
                && self.target.is_met(tokens + saved, count + merged)
            {
                applied[at] = false;
                tokens += saved;
                count += merged;
            }
        }
        replacements.truncate(needed);
        replacements
            .into_iter()
            .zip(applied)
            .filter_map(|(replacement, applied)| applied.then_some(replacement))
            .collect()
    }

    /// MAXIMUM, last resort: when the conversation is still over the absolute limit,
    /// clips the largest compactable messages middle-out (with a marker) by what is over.
    /// Only the limit is cause: what is raw at MAXIMUM is what always stays verbatim (the
    /// task, the newest user message, the newest turn), and a target is no reason to clip
    /// it — the result misses the target instead.
    fn clip_oversized(&mut self) {
        // Raw messages first; summaries only if that is not enough (a clipped summary loses
        // what it stood for).
        let limit = self.compactor.budget.absolute_limit;
        self.clip_to(limit, false);
        self.clip_to(limit, true);
    }

    /// Clips compactable messages (summaries too, with `summaries`) until the
    /// conversation is at or below `limit`, or nothing is left to clip.
    fn clip_to(&mut self, limit: u64, summaries: bool) {
        let accountant = self.compactor.accountant.clone();
        let summary_floor = crate::prune::summary_floor(&accountant);
        // Largest first, each cut by what is still over (clipping is approximate: a few
        // passes at most), never below what a message needs to say anything.
        for _ in 0..4 {
            let total = self.tokens();
            if total <= limit {
                return;
            }
            let mut excess = total - limit;
            let mut tokens: Vec<u64> = self
                .current
                .iter()
                .map(|m| {
                    if m.compactable && (summaries || !m.is_compaction()) {
                        accountant.message_tokens(m)
                    } else {
                        0
                    }
                })
                .collect();
            // The largest first (picked one by one: a sort would cost the npm package more).
            while excess > 0 {
                let Some((i, size)) = tokens.iter().copied().enumerate().max_by_key(|&(_, t)| t)
                else {
                    break;
                };
                if size == 0 {
                    break;
                }
                // A summary may go down to a marker: a window too small for more is still
                // no reason to lose the run.
                let floor = if self.current[i].is_compaction() {
                    summary_floor
                } else {
                    MIN_CLIPPED_TOKENS
                };
                if size <= floor {
                    tokens[i] = 0;
                    continue;
                }
                tokens[i] = 0;
                // A summary is shrunk by counting what it keeps: no margin for the
                // approximation of clipping text middle-out.
                let margin = if self.current[i].is_compaction() {
                    0
                } else {
                    excess / 8
                };
                let keep = size.saturating_sub(excess + margin).max(floor);
                shrink(&mut self.current[i], &accountant, keep);
                let now = accountant.message_tokens(&self.current[i]);
                excess = excess.saturating_sub(size.saturating_sub(now));
            }
        }
    }
}

/// A job's summary: the standing instructions it folded, the answer, and the trail of
/// what the answer missed, within the job's room. The instructions are kept whole, the
/// user's words before all: where the answer does not fit beside them, they give up what
/// was replaced first ([`crate::standing::lean_block`]), then the answer gives way (the
/// trail then takes what the room has left). A summary with nothing at all to say (an
/// empty answer, nothing standing, no fact to trail) says so.
fn summary_text(job: &Job, answer: &str, accountant: &TokenAccountant) -> String {
    let room = job.max_output_tokens;
    let folded = |m| job.replace.contains(&m);
    let fits = |block: &str| accountant.text_tokens(block) + accountant.text_tokens(answer) <= room;
    let block = crate::standing::block(&job.standing, folded).and_then(|block| {
        if answer.trim().is_empty() || fits(&block) {
            return Some(block);
        }
        // What stands now beside the answer; the answer alone when nothing stands now;
        // else the whole block alone.
        match crate::standing::lean_block(&job.standing, folded) {
            Some(lean) if fits(&lean) => Some(lean),
            Some(_) => Some(block),
            None => None,
        }
    });
    let answer = match &block {
        Some(block)
            if answer.trim().is_empty()
                || accountant.text_tokens(block) + accountant.text_tokens(answer) > room =>
        {
            block.clone()
        }
        Some(block) => format!("{block}\n\n{answer}"),
        None => answer.to_owned(),
    };
    let text = job.trail.write(&answer, room, accountant);
    if text.trim().is_empty() {
        NOTHING_KEPT.to_owned()
    } else {
        text
    }
}

/// A summary whose messages held nothing worth keeping: no answer, no instruction, no fact.
const NOTHING_KEPT: &str = "- (nothing in these messages was worth keeping)";
