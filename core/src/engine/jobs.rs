//! Jobs: one summary a level needs, split into chunks that fit the summarizer's window
//! (map), merged by a reduce step when there are several; answers checked, refused ones
//! typed; inputs the summarizer finds too long retried smaller.

use std::collections::{HashMap, HashSet};

use crate::engine::{CompactionConfig, MIN_SUMMARY_TOKENS, SummaryFailure};
use crate::hash::Hasher;
use crate::ladder::{Fold, Level};
use crate::message::{Message, MessageId};
use crate::observation::masked_outputs;
use crate::policy::Sizing;
use crate::prompt::{PROMPT_VERSION, PromptKind, artifact_refs};
use crate::prune::shrink;
use crate::standing::Instruction;
use crate::tokens::TokenAccountant;
use crate::trail::{Trail, prose};

/// Which part of a job a request is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PartRef {
    /// The map step's chunk (the whole input when there is one chunk).
    Chunk(usize),
    /// The reduce step over the chunks' summaries.
    Reduce,
}

/// A part's input and answer.
#[derive(Debug)]
pub(crate) struct Chunk {
    pub(crate) messages: Vec<Message>,
    /// The answer's size limit: the job's, or less for the map step of a map-reduce, so
    /// that all partial summaries fit the summarizer's window together.
    pub(crate) max_output_tokens: u64,
    pub(crate) attempt: u32,
    pub(crate) result: Option<String>,
}

impl Chunk {
    fn new(messages: Vec<Message>, max_output_tokens: u64) -> Self {
        Self {
            messages,
            max_output_tokens,
            attempt: 1,
            result: None,
        }
    }
}

#[derive(Debug)]
pub(crate) enum JobState {
    Open,
    Done(String),
    Failed(SummaryFailure),
}

/// An answer taken.
#[derive(Debug)]
pub(crate) struct Accepted {
    /// Tokens of the answer.
    pub(crate) tokens: u64,
    /// Artifact references the answer dropped, appended to it.
    pub(crate) restored: Vec<String>,
    /// The reduce step is now due.
    pub(crate) reduce_due: bool,
}

#[derive(Debug)]
pub(crate) struct Job {
    pub(crate) level: Level,
    /// Indices into the run's current messages that the summary replaces.
    pub(crate) replace: Vec<usize>,
    pub(crate) covers: Vec<MessageId>,
    pub(crate) age: usize,
    pub(crate) existing: Option<String>,
    /// The room the plan leaves the summary, its trail included.
    pub(crate) max_output_tokens: u64,
    /// What the summarizer is asked for: the room less the trail's reserve.
    pub(crate) ask: u64,
    pub(crate) cache_key: String,
    pub(crate) chunks: Vec<Chunk>,
    pub(crate) reduce: Option<Chunk>,
    pub(crate) state: JobState,
    /// The trail of the replaced messages: the summary carries, in context, the facts its
    /// answer dropped.
    pub(crate) trail: Trail,
    /// The user's standing instructions said in the replaced messages: the summary carries
    /// them verbatim.
    pub(crate) standing: Vec<Instruction>,
}

impl Job {
    /// The job for `fold` of `messages`, its input chunked to the summarizer's window;
    /// its trail comes from what `known` says the replaced messages said.
    pub(crate) fn new(
        level: Level,
        fold: Fold,
        messages: &[Message],
        known: &Known<'_>,
        session: &str,
        config: &CompactionConfig,
        accountant: &TokenAccountant,
    ) -> Job {
        let covers: Vec<MessageId> = fold
            .replace
            .iter()
            .flat_map(|&i| messages[i].stands_for().iter().cloned())
            .collect();
        // With incremental summaries the existing running summary is the prompt's base,
        // not part of the transcript.
        let picked: Vec<usize> = fold
            .replace
            .iter()
            .copied()
            .filter(|&i| {
                fold.existing.is_none()
                    || messages[i]
                        .compaction
                        .as_ref()
                        .is_none_or(|meta| meta.level < Level::Aggressive)
            })
            .collect();
        let inputs: Vec<&Message> = picked.iter().map(|&i| &messages[i]).collect();
        let cache_key = cache_key(
            session,
            level,
            &inputs,
            fold.existing.as_deref(),
            config.instructions.as_deref(),
            known.sizing,
        );
        let trail = Trail::new(
            fold.replace
                .iter()
                .flat_map(|&i| known.sources(&messages[i])),
            &known.kept,
        );
        let standing = known.standing_in(&fold.replace);
        // What the summary must hold beside the answer: what stands now (what was replaced
        // gives way to the answer where the room is short).
        let standing_tokens = crate::standing::lean_block(&standing, |m| fold.replace.contains(&m))
            .map_or(0, |block| accountant.text_tokens(&block));
        let ask = answer_tokens(
            fold.max_output_tokens.saturating_sub(standing_tokens),
            &trail,
            known.sizing.trail_share,
        );
        let read: Vec<Option<Message>> = picked
            .iter()
            .map(|&i| as_read(messages, i, level, ask, known, config, accountant))
            .collect();
        let inputs: Vec<&Message> = inputs
            .iter()
            .zip(&read)
            .map(|(&m, read)| read.as_ref().unwrap_or(m))
            .collect();
        let groups = chunk_inputs(&inputs, config.summarizer_input_tokens, accountant);
        let chunk_output_tokens = if groups.len() > 1 {
            (config.summarizer_input_tokens / (groups.len() as u64 + 1))
                .min(ask)
                .max(MIN_SUMMARY_TOKENS)
        } else {
            ask
        };
        Job {
            level,
            trail,
            standing,
            replace: fold.replace,
            covers,
            age: fold.age,
            // The summarizer updates the prose; the trail's excerpts are read again from
            // the folded summary's text, and the engine writes them back.
            existing: fold.existing.map(|e| prose(&e).to_owned()),
            max_output_tokens: fold.max_output_tokens,
            cache_key,
            chunks: groups
                .into_iter()
                .map(|messages| Chunk::new(messages, chunk_output_tokens))
                .collect(),
            ask,
            reduce: None,
            state: JobState::Open,
        }
    }

    pub(crate) fn is_open(&self) -> bool {
        matches!(self.state, JobState::Open)
    }

    pub(crate) fn part(&self, part: PartRef) -> Option<&Chunk> {
        match part {
            PartRef::Chunk(c) => self.chunks.get(c),
            PartRef::Reduce => self.reduce.as_ref(),
        }
    }

    fn part_mut(&mut self, part: PartRef) -> Option<&mut Chunk> {
        match part {
            PartRef::Chunk(c) => self.chunks.get_mut(c),
            PartRef::Reduce => self.reduce.as_mut(),
        }
    }

    /// The prompt a part is asked with: the one place this is decided, for first issue
    /// and retries alike.
    pub(crate) fn prompt_kind(&self, part: PartRef) -> PromptKind<'_> {
        match part {
            PartRef::Reduce => PromptKind::Reduce,
            PartRef::Chunk(_) if self.chunks.len() > 1 => PromptKind::Running { existing: None },
            PartRef::Chunk(_) if self.level == Level::Moderate => {
                PromptKind::Segment { age: self.age }
            }
            PartRef::Chunk(_) => PromptKind::Running {
                existing: self.existing.as_deref(),
            },
        }
    }

    /// Takes an answer for `part`: refused when empty or far longer than asked; dropped
    /// artifact references are appended. When the job's last part is in, the job is done
    /// (or its reduce step is due).
    pub(crate) fn accept(
        &mut self,
        part: PartRef,
        text: &str,
        accountant: &TokenAccountant,
    ) -> Result<Accepted, SummaryFailure> {
        let (room, single) = (self.max_output_tokens, self.chunks.len() == 1);
        let Some(chunk) = self.part_mut(part) else {
            return Err(SummaryFailure::failed("no such part"));
        };
        // An empty answer is taken as it is: the summary is then its standing
        // instructions and its trail, or a marker when it has neither.
        let text = text.trim();
        let tokens = accountant.text_tokens(text);
        // The final answer may take the whole room the plan left the summary (it was asked
        // for less, to leave the trail its place): only past that is it too long.
        let last = part == PartRef::Reduce || single;
        let allowed = if last {
            chunk.max_output_tokens.max(room)
        } else {
            chunk.max_output_tokens
        };
        let limit = allowed + allowed / 2 + 16;
        if tokens > limit {
            return Err(SummaryFailure::TooLong { tokens, limit });
        }
        let input: String = chunk
            .messages
            .iter()
            .map(Message::text)
            .collect::<Vec<_>>()
            .join("\n");
        let restored: Vec<String> = artifact_refs(&input)
            .into_iter()
            .filter(|r| !text.contains(r.as_str()))
            .collect();
        chunk.result = Some(if restored.is_empty() {
            text.to_owned()
        } else {
            format!("{text}\n- Artifacts: {}", restored.join(" "))
        });
        let mut reduce_due = false;
        if part == PartRef::Reduce || self.chunks.len() == 1 {
            if let Some(text) = self.part(part).and_then(|c| c.result.clone()) {
                self.state = JobState::Done(text);
            }
        } else if self.chunks.iter().all(|c| c.result.is_some()) && self.reduce.is_none() {
            self.reduce = Some(self.reduce_chunk());
            reduce_due = true;
        }
        Ok(Accepted {
            tokens,
            restored,
            reduce_due,
        })
    }

    /// The reduce step's input: the existing running summary (incremental mode) first,
    /// then each chunk's summary.
    fn reduce_chunk(&self) -> Chunk {
        let partials: Vec<Message> = self
            .existing
            .iter()
            .cloned()
            .chain(
                self.chunks
                    .iter()
                    .map(|c| c.result.clone().unwrap_or_default()),
            )
            .enumerate()
            .map(|(i, text)| Message::user(format!("part{i}").as_str(), text))
            .collect();
        Chunk::new(partials, self.ask)
    }

    /// After an answer of `tokens` far longer than asked: asks `part` again for less, in
    /// proportion to the overrun (a model that wrote twice the length asked is asked for
    /// half), so one verbose answer costs a request rather than the level. The limit the
    /// answer is held to stays what it was. `false` when the attempts are used up.
    pub(crate) fn ask_shorter(&mut self, part: PartRef, tokens: u64, max_attempts: u32) -> bool {
        let Some(chunk) = self.part_mut(part) else {
            return false;
        };
        if chunk.attempt >= max_attempts || tokens == 0 {
            return false;
        }
        chunk.attempt += 1;
        let asked = chunk.max_output_tokens;
        let shorter = u64::try_from(u128::from(asked) * u128::from(asked) / u128::from(tokens))
            .unwrap_or(asked);
        chunk.max_output_tokens = shorter.max(MIN_SUMMARY_TOKENS).min(asked);
        chunk.result = None;
        true
    }

    /// After "input too long": shrinks `part`'s input for another attempt (each attempt
    /// halves every message again). `false` when the attempts are used up.
    pub(crate) fn retry_smaller(
        &mut self,
        part: PartRef,
        max_attempts: u32,
        accountant: &TokenAccountant,
    ) -> bool {
        let Some(chunk) = self.part_mut(part) else {
            return false;
        };
        if chunk.attempt >= max_attempts {
            return false;
        }
        chunk.attempt += 1;
        let share = 1u64.checked_shl(chunk.attempt - 1).unwrap_or(u64::MAX);
        for message in &mut chunk.messages {
            let tokens = accountant.message_tokens(message);
            shrink(message, accountant, (tokens / share).max(32));
        }
        chunk.result = None;
        true
    }
}

/// What a level's jobs know of where facts come from: the facts of what stays raw beside
/// the level's folds, and the run's input by message id — a tool result LIGHT cleared
/// earlier in the run still gives its facts to the summary that replaces its placeholder;
/// and how the run sizes its summaries.
pub(crate) struct Known<'a> {
    pub(crate) kept: HashSet<String>,
    pub(crate) originals: HashMap<&'a MessageId, &'a Message>,
    /// Which of the conversation's messages are observations ([`crate::observation`]).
    pub(crate) observed: Vec<bool>,
    /// The user's standing instructions in the conversation, by message index
    /// ([`crate::standing`]).
    pub(crate) instructions: Vec<Instruction>,
    /// How the run sizes its summaries.
    pub(crate) sizing: Sizing,
}

impl<'a> Known<'a> {
    /// The standing instructions said in the messages at `replace`: a summary of them
    /// carries them ([`crate::standing::block`] tells which it writes, and how).
    fn standing_in(&self, replace: &[usize]) -> Vec<Instruction> {
        self.instructions
            .iter()
            .filter(|i| replace.contains(&i.message))
            .cloned()
            .collect()
    }

    /// The messages whose facts `message` stands for, oldest first: the run's input of
    /// each message it covers (a summary made in this run covers several), and itself.
    fn sources<'m>(&'m self, message: &'m Message) -> Vec<&'m Message>
    where
        'a: 'm,
    {
        let mut out: Vec<&Message> = match &message.compaction {
            Some(meta) => meta
                .covers
                .iter()
                .filter_map(|id| self.originals.get(id).copied())
                .collect(),
            None => self
                .originals
                .get(&message.id)
                .copied()
                .into_iter()
                .collect(),
        };
        if message.compaction.is_some() || out.is_empty() {
            out.push(message);
        }
        out
    }
}

/// Under the policy a message is read clipped to its answer's size, never below this: what
/// a summarizer needs to tell what the message was.
const MIN_READ_TOKENS: u64 = 2 * MIN_SUMMARY_TOKENS;

/// How the summarizer of a `level` summary asked for `ask` tokens reads `messages[i]`, when
/// not as it is: a running summary reads tool outputs as their placeholders (its trail
/// takes their facts whole; MODERATE's summaries are sized from their segments, read
/// whole); under the policy a message whose text runs longer than the answer is read with
/// its text clipped middle-out to about that size, at least [`MIN_READ_TOKENS`] (the
/// answer's prose cannot say more of it, and the trail takes its facts whole; tool-call
/// arguments are read as they are). Unless `summarize_outputs` asks for every message
/// whole.
fn as_read(
    messages: &[Message],
    i: usize,
    level: Level,
    ask: u64,
    known: &Known<'_>,
    config: &CompactionConfig,
    accountant: &TokenAccountant,
) -> Option<Message> {
    // An earlier summary is read as its prose: its standing instructions and its trail are
    // the engine's to carry again, not text a summarizer is paid to read.
    if let Some(prose) = crate::prune::as_prose(&messages[i]) {
        return Some(prose);
    }
    if config.summarize_outputs {
        return None;
    }
    let mut read = None;
    if level >= Level::Aggressive {
        let observation = known.observed.get(i).is_some_and(|&o| o);
        let previous = i.checked_sub(1).map(|p| &messages[p]);
        read = masked_outputs(&messages[i], previous, observation, accountant);
    }
    let message = read.as_ref().unwrap_or(&messages[i]);
    let size = ask.max(MIN_READ_TOKENS);
    if known.sizing.clip_inputs
        && !message.is_compaction()
        && accountant.message_tokens(message) > size
    {
        let mut clipped = message.clone();
        shrink(&mut clipped, accountant, size);
        read = Some(clipped);
    }
    read
}

/// What the summarizer is asked for out of a summary's `room`: the room less what the
/// trail may need (its size, within `trail_share` of the room), so that an answer that
/// fills what it was asked for leaves the trail its place.
fn answer_tokens(room: u64, trail: &Trail, trail_share: f64) -> u64 {
    // A fold of words alone (no command run, no file read or changed) holds nothing back:
    // a conversation's facts stand in its sentences, which the answer keeps in their
    // context, the user's words first; the trail takes what the answer leaves.
    if !trail.records_work() {
        return room.max(MIN_SUMMARY_TOKENS);
    }
    let share = (room as f64 * trail_share) as u64;
    let needed = trail.size_estimate();
    room.saturating_sub(needed.min(share))
        .max(MIN_SUMMARY_TOKENS)
}

/// Splits `inputs` into groups that each fit `window` tokens; a message larger than the
/// window alone is clipped to half of it.
fn chunk_inputs(
    inputs: &[&Message],
    window: u64,
    accountant: &TokenAccountant,
) -> Vec<Vec<Message>> {
    let mut chunks = vec![];
    let mut current: Vec<Message> = vec![];
    let mut current_tokens = 0;
    for &message in inputs {
        let mut message = message.clone();
        if accountant.message_tokens(&message) > window {
            shrink(&mut message, accountant, window / 2);
        }
        let tokens = accountant.message_tokens(&message);
        if current_tokens + tokens > window && !current.is_empty() {
            chunks.push(std::mem::take(&mut current));
            current_tokens = 0;
        }
        current_tokens += tokens;
        current.push(message);
    }
    if !current.is_empty() || chunks.is_empty() {
        chunks.push(current);
    }
    chunks
}

/// The summary cache's key: session, level, prompt version, the existing summary, the
/// caller's focus (another focus asks for another summary), the run's sizing and the
/// content of every input message.
fn cache_key(
    session: &str,
    level: Level,
    messages: &[&Message],
    existing: Option<&str>,
    instructions: Option<&str>,
    sizing: Sizing,
) -> String {
    let mut hasher = Hasher::new();
    hasher
        .str(session)
        .str(level.as_str())
        .u64(u64::from(PROMPT_VERSION));
    hasher.str(existing.unwrap_or(""));
    if let Some(focus) = instructions {
        hasher.str("focus").str(focus);
    }
    // Another sizing asks for another answer, from inputs read another way (the band's
    // keys stay those summaries were cached under before sizings existed).
    if sizing != Sizing::BAND {
        hasher
            .str("sizing")
            .u64(sizing.trail_share.to_bits())
            .u64(u64::from(sizing.full_summaries))
            .u64(u64::from(sizing.clip_inputs));
    }
    for message in messages {
        hasher.message(message);
    }
    hasher.finish().to_hex()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_is_cached_apart_for_each_sizing() {
        let messages = [Message::user("u", "fix src/lib.rs")];
        let inputs: Vec<&Message> = messages.iter().collect();
        let key = |sizing| cache_key("s", Level::Aggressive, &inputs, None, None, sizing);
        // A cut under the policy asks for another answer from the same messages.
        assert_ne!(key(Sizing::BAND), key(Sizing::THRIFT));
        assert_eq!(key(Sizing::THRIFT), key(Sizing::THRIFT));
    }
}
