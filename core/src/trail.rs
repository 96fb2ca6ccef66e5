//! The artifact trail: what a summary carries of the messages it folds, as a record a
//! model can read.
//!
//! A bare list of the facts a fold drops — `numbers: 2024 4096 102 …` — keeps them present
//! and useless: which file, which line, what happened. The trail keeps each fact inside
//! the clause it came from, verbatim, grouped by what it is about:
//!
//! ```text
//! Trail of the condensed messages (verbatim excerpts, newest first):
//! - src/app/models.py (read, edited): `sed -n '1460,1480p' src/app/models.py` · 1474 total = price * qty · `str_replace_editor str_replace src/app/models.py "total = price * qty" → "total = Decimal(price) * qty"`
//! - `pytest tests/test_models.py -x` → exit 1: FAILED tests/test_models.py::test_total - TypeError: unsupported operand type(s)
//! - File "/app/src/app/models.py", line 1474, in total
//! ```
//!
//! One entry per subject: a file with what was done to it (read, created, edited, deleted,
//! ran, tested) and the excerpts of what the commands on it showed; a command with its
//! exit status and what its output said (its first error line first); and lone clauses
//! (a traceback frame, a line of the user's or the agent's words) that name a fact.
//! Numbers, paths and names are never listed bare: a fact enters the trail inside an
//! excerpt of a line that held it, so a line of the trail shares its words with that line
//! ([`crate::retention`] counts a fact kept only there).
//!
//! What enters is chosen by value per token ([`Trail::block`]): each excerpt is worth the
//! facts it adds that neither the summarizer's answer nor an excerpt already chosen holds
//! in context — an error line more than a path, a path more than a number — more when the
//! rest of the run still touches its subject (its file is in the messages that stay raw)
//! or names the fact again, and more the newer it is; a command's outcome, an edit and the
//! user's words are worth their place even without a new fact. Markup, fragments and
//! narration are not facts: tags are stripped, a line of fewer than two words never
//! stands alone, and "Let me check …" leaves only what it names. The trail takes what
//! the summary's room has left after the answer.
//!
//! When a later level folds a summary again, its trail's lines are read back
//! ([`Trail::new`] reads summaries' trails as excerpts of their subjects), so what a trail
//! kept is kept again, ranked with the new; the summarizer that updates a running summary
//! is handed its [`prose`] alone.

use std::collections::{BinaryHeap, HashMap, HashSet};

use crate::facts::{
    Fact, FactKind, command_head, command_of, exit_status, fact_head, is_error_line,
    json_string_field, line_facts, strip_markup, with_its_message, without_label,
};
use crate::message::{Message, Part, Role, ToolCall, text_of};
use crate::retention::{Contexts, FactId};
use crate::tokens::TokenAccountant;

/// The first line of a trail block.
pub const TRAIL_HEADER: &str = "Trail of the condensed messages (verbatim excerpts, newest first):";

/// The longest excerpt of one line kept whole, in characters; a longer line gives the
/// words around each of its facts.
const MAX_EXCERPT_CHARS: usize = 160;
/// Words kept before and after a fact in an excerpt of a long line.
const WORDS_BEFORE: usize = 4;
const WORDS_AFTER: usize = 6;
/// Words kept after a listing's line number (`  898\t        raise AttributeError(`):
/// the number in the clause that says what stands there.
const LISTING_WORDS: usize = 6;
/// Longest command head, in characters.
const MAX_COMMAND_CHARS: usize = 120;
/// Longest excerpt of an edit's old and new text, in characters.
const MAX_EDIT_CHARS: usize = 60;
/// What separates the excerpts of one entry.
const SEPARATOR: &str = " · ";

/// What was done to a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Action {
    /// Read or listed.
    Read,
    /// Searched in.
    Searched,
    /// Created or written whole.
    Created,
    /// Edited in place.
    Edited,
    /// Deleted.
    Deleted,
    /// Run as a program.
    Ran,
    /// Run as tests.
    Tested,
}

impl Action {
    /// The word the trail writes.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Read => "read",
            Action::Searched => "searched",
            Action::Created => "created",
            Action::Edited => "edited",
            Action::Deleted => "deleted",
            Action::Ran => "ran",
            Action::Tested => "tested",
        }
    }

    fn from_word(word: &str) -> Option<Action> {
        Some(match word {
            "read" => Action::Read,
            "searched" => Action::Searched,
            "created" => Action::Created,
            "edited" => Action::Edited,
            "deleted" => Action::Deleted,
            "ran" => Action::Ran,
            "tested" => Action::Tested,
            _ => return None,
        })
    }
}

/// What an entry of the trail is about.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Subject {
    /// A file, by its path as written.
    File(String),
    /// A command, by its head (with its exit status once known).
    Command(String),
    /// Nothing in particular: each excerpt stands on a line of its own.
    Loose,
}

#[derive(Debug)]
struct SubjectInfo {
    subject: Subject,
    actions: Vec<Action>,
    /// A command's newest exit status.
    status: Option<i64>,
    /// Does what stays raw beside the fold still name it?
    touched: bool,
}

/// One excerpt the trail may keep.
#[derive(Debug)]
struct Excerpt {
    subject: usize,
    text: String,
    facts: Vec<FactId>,
    /// Where in the folded messages it was said (higher is newer).
    position: u32,
    /// What it is worth beyond its facts: an outcome, an edit, the user's words.
    bonus: u32,
    /// It records an action (a command, an edit): worth its bonus even where its facts
    /// are held elsewhere.
    record: bool,
    /// A line a read showed that the rest of the run does not touch: worth nothing (see
    /// [`ShownLine`]).
    idle: bool,
}

/// A numbered line of a file as a read showed it (`  119\tdef _import(module):`). A read
/// of five hundred lines is not five hundred facts: a line is worth its place where the
/// run touched it — a definition (the file's outline), a line an edit changed or wrote, a
/// line an error or a reader names (`line 503`, `lambdify.py:503`), a line holding a fact
/// the rest of the run names. The rest, a docstring's half-lines, a comment, cost every
/// later call and tell a model nothing it cannot read again.
#[derive(Debug)]
struct ShownLine {
    excerpt: usize,
    number: u64,
    code: String,
}

/// A command the trail is waiting for the output of.
#[derive(Debug, Clone, Copy)]
struct Invocation {
    subject: usize,
    /// The excerpt that records the command: a file's takes the exit status in its text,
    /// a command's is its label's (the label takes the status).
    head: usize,
    /// It reads a file: its numbered lines are [`ShownLine`]s.
    reads: bool,
}

/// The trail of a fold: every excerpt it could keep, ready to be sized to a room.
#[derive(Debug, Default)]
pub struct Trail {
    contexts: Contexts,
    subjects: Vec<SubjectInfo>,
    by_subject: HashMap<Subject, usize>,
    excerpts: Vec<Excerpt>,
    seen_excerpts: HashSet<(usize, String)>,
    /// Facts of what stays raw: held already.
    kept: HashSet<FactId>,
    /// How many folded lines named each fact.
    mentions: Vec<u32>,
    positions: u32,
    /// Lines reads showed, to be weighed once the whole fold is read.
    shown: Vec<ShownLine>,
    /// Lines of code edits took out or put in, trimmed.
    edited: HashSet<String>,
    /// Line numbers the folded text names (`line 503`, `a.py:503`).
    named_lines: HashSet<u64>,
}

impl Trail {
    /// The trail of `folded` (oldest first), beside `kept`: the facts of what stays raw
    /// (held already; a file among them is one the rest of the run still touches).
    pub fn new<'a>(folded: impl IntoIterator<Item = &'a Message>, kept: &HashSet<String>) -> Self {
        let mut trail = Trail::default();
        let mut calls: Vec<(&str, Invocation)> = Vec::new();
        let mut awaiting: Option<Invocation> = None;
        for message in folded {
            trail.positions += 1;
            let position = trail.positions;
            if message.role == Role::System {
                continue;
            }
            if let Some(meta) = &message.compaction {
                trail.read_summary(&meta.summary_text, position);
                awaiting = None;
                continue;
            }
            for part in &message.parts {
                match part {
                    Part::ToolCall(call) if message.role == Role::Assistant => {
                        let invocation = trail.invoke_call(call, position);
                        calls.push((&call.id, invocation));
                    }
                    Part::ToolResult(result) => {
                        let text = text_of(&result.content);
                        let invocation = calls
                            .iter()
                            .rfind(|(id, _)| *id == result.call_id)
                            .map(|(_, i)| *i);
                        // A cleared result: its placeholder's first line is not the output's.
                        trail.output(invocation, output_lines(&text), position);
                    }
                    Part::Text { text } if message.role == Role::Assistant => {
                        awaiting = None;
                        // A chat's answer that shows a block of YAML or a command and
                        // goes on explaining is prose; only an action an environment
                        // answers is a command, and the message after it its output.
                        let action = crate::action::closing_action(text);
                        let prose = match &action {
                            // The block that holds the command is read as the command.
                            Some((_, command)) => text
                                .split_once(command.as_ref())
                                .map_or(text.as_str(), |(before, _)| before),
                            None => text,
                        };
                        trail.prose(prose, position, 0);
                        if let Some((_, command)) = action {
                            awaiting = Some(trail.invoke_command(&command, None, position));
                        }
                    }
                    Part::Text { text } => match awaiting.take() {
                        Some(invocation) => trail.output(Some(invocation), text, position),
                        // The user's instructions are the standing block's to carry.
                        None => trail.prose(
                            &crate::standing::without_instructions(text),
                            position,
                            USER_BONUS,
                        ),
                    },
                    _ => {}
                }
            }
        }
        trail.kept = kept.iter().filter_map(|f| trail.contexts.id(f)).collect();
        trail.weigh_shown_lines();
        for info in &mut trail.subjects {
            info.touched = match &info.subject {
                Subject::File(path) => kept.contains(path),
                _ => false,
            };
        }
        trail
    }

    /// Does the fold record work done (a command run, a file read or changed), not
    /// only words? A conversation's words are its summary's to carry; a run's commands
    /// and outputs are what the trail is for.
    pub fn records_work(&self) -> bool {
        self.excerpts.iter().any(|e| e.record)
    }

    /// The trail of one tool output, as a cleared result's placeholder keeps it.
    pub fn of_output(output: &str) -> Self {
        let mut trail = Trail {
            positions: 1,
            ..Trail::default()
        };
        let subject = trail.subject(Subject::Loose);
        let invocation = Invocation {
            subject,
            head: usize::MAX,
            reads: false,
        };
        trail.output(Some(invocation), output, 1);
        trail
    }

    /// The excerpts worth most per token within `budget` (as `count` counts them, a line
    /// each), in the order they were said.
    pub fn excerpts_within(&self, budget: u64, count: &dyn Fn(&str) -> u64) -> Vec<&str> {
        let mut chosen = self.choose("", budget, count);
        crate::sort::sort_by_key(&mut chosen, |&i| (self.excerpts[i].position, i));
        chosen
            .into_iter()
            .map(|i| self.excerpts[i].text.as_str())
            .filter(|t| !t.is_empty())
            .collect()
    }

    /// About how many tokens the whole trail would take: what a summary's room may set
    /// aside for it.
    pub fn size_estimate(&self) -> u64 {
        let excerpts: u64 = self
            .excerpts
            .iter()
            .filter(|e| e.bonus > 0 || e.facts.iter().any(|f| !self.kept.contains(f)))
            .map(|e| e.text.len() as u64 / 4 + 2)
            .sum();
        excerpts + self.subjects.len() as u64 * 6
    }

    fn subject(&mut self, subject: Subject) -> usize {
        // A command or a file without words (`;`) names nothing a reader could look for:
        // what it printed stands on its own.
        let subject = match subject {
            Subject::Command(label) | Subject::File(label)
                if label.chars().filter(|c| c.is_alphanumeric()).count() < 2 =>
            {
                Subject::Loose
            }
            subject => subject,
        };
        if let Some(&at) = self.by_subject.get(&subject) {
            return at;
        }
        let at = self.subjects.len();
        self.subjects.push(SubjectInfo {
            subject: subject.clone(),
            actions: Vec::new(),
            status: None,
            touched: false,
        });
        self.by_subject.insert(subject, at);
        at
    }

    fn act(&mut self, subject: usize, action: Action) {
        let actions = &mut self.subjects[subject].actions;
        if !actions.contains(&action) {
            actions.push(action);
            crate::sort::sort(actions);
        }
    }

    /// Adds an excerpt whose text was said at `position`; the facts are its own.
    fn excerpt(
        &mut self,
        subject: usize,
        text: String,
        position: u32,
        bonus: u32,
    ) -> Option<usize> {
        self.add_excerpt(subject, text, position, bonus, false)
    }

    /// Adds an excerpt that records an action.
    fn record(&mut self, subject: usize, text: String, position: u32, bonus: u32) -> Option<usize> {
        self.add_excerpt(subject, text, position, bonus, true)
    }

    fn add_excerpt(
        &mut self,
        subject: usize,
        text: String,
        position: u32,
        bonus: u32,
        record: bool,
    ) -> Option<usize> {
        if !self.seen_excerpts.insert((subject, text.clone())) {
            return None;
        }
        let mut facts = self.contexts.add(&text, |_| true);
        for &f in &facts {
            let at = f as usize;
            if self.mentions.len() <= at {
                self.mentions.resize(at + 1, 0);
            }
            self.mentions[at] = self.mentions[at].saturating_add(1);
        }
        facts.sort_unstable();
        facts.dedup();
        self.excerpts.push(Excerpt {
            subject,
            text,
            facts,
            position,
            bonus,
            record,
            idle: false,
        });
        Some(self.excerpts.len() - 1)
    }

    /// The lines of code an edit's arguments take out or put in.
    fn note_edited(&mut self, arguments: &str) {
        for key in ["old_str", "new_str", "old_string", "new_string"] {
            if let Some(text) = json_string_field(arguments, key) {
                self.edited.extend(
                    text.lines()
                        .map(str::trim)
                        .filter(|l| l.chars().filter(|c| c.is_alphanumeric()).count() >= 3)
                        .map(str::to_owned),
                );
            }
        }
    }

    /// The line numbers `line` names: `line 503`, `lines 40-52`, `a.py:503`.
    fn note_named_lines(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        for (at, word) in words.iter().enumerate() {
            let lower = word.to_ascii_lowercase();
            if (lower == "line" || lower == "lines")
                && let Some(next) = words.get(at + 1)
            {
                for n in next.split(['-', ',', ':']).filter_map(leading_number) {
                    self.named_lines.insert(n);
                }
            }
            // `path.py:503` or `path.py:503:7`.
            if let Some((before, after)) = word.split_once(':')
                && before.contains('.')
                && let Some(n) = leading_number(after)
            {
                self.named_lines.insert(n);
            }
        }
    }

    /// Once the fold is read: a shown line the run did not touch is idle.
    fn weigh_shown_lines(&mut self) {
        let shown = std::mem::take(&mut self.shown);
        let is_shown: HashSet<usize> = shown.iter().map(|s| s.excerpt).collect();
        // Facts named outside what reads showed, or by what stays raw.
        let mut elsewhere: HashSet<FactId> = self.kept.clone();
        for (i, e) in self.excerpts.iter().enumerate() {
            if !is_shown.contains(&i) {
                elsewhere.extend(e.facts.iter().copied());
            }
        }
        for shown in shown {
            let number = shown.number.to_string();
            let names_a_fact = self.excerpts.get(shown.excerpt).is_some_and(|e| {
                e.facts
                    .iter()
                    .any(|&f| elsewhere.contains(&f) && self.contexts.fact(f).1 != number)
            });
            let touched = is_definition(&shown.code)
                || self.edited.contains(shown.code.trim())
                || self.named_lines.contains(&shown.number)
                || names_a_fact;
            if !touched && let Some(excerpt) = self.excerpts.get_mut(shown.excerpt) {
                excerpt.idle = true;
            }
        }
    }

    /// A tool call: a shell command, a file tool, or another tool with its arguments.
    fn invoke_call(&mut self, call: &ToolCall, position: u32) -> Invocation {
        if let Some((path, action, head)) = file_tool(call) {
            self.note_edited(&call.arguments);
            let subject = self.subject(Subject::File(path));
            self.act(subject, action);
            let bonus = if matches!(action, Action::Edited | Action::Created | Action::Deleted) {
                EDIT_BONUS
            } else {
                COMMAND_BONUS
            };
            let head = self
                .record(subject, head, position, bonus)
                .unwrap_or(usize::MAX);
            return Invocation {
                subject,
                head,
                reads: action == Action::Read,
            };
        }
        match command_of(&call.arguments) {
            Some(command) => self.invoke_command(&command, Some(&call.name), position),
            None => {
                let head = tool_head(call);
                self.invoke_command(&head, None, position)
            }
        }
    }

    /// A shell command (or a tool written as one): its subject is the file it names, when
    /// it names one, else the command.
    fn invoke_command(&mut self, command: &str, tool: Option<&str>, position: u32) -> Invocation {
        let head = command_head(command, MAX_COMMAND_CHARS);
        let head = match tool {
            Some(tool) if !looks_like_shell(tool) => format!("{tool} {head}"),
            _ => head,
        };
        let acted = file_actions(command);
        let files: Vec<&String> = {
            let mut files: Vec<&String> = acted.iter().map(|(p, _)| p).collect();
            files.dedup();
            files
        };
        let subject = match files.as_slice() {
            [one] => Subject::File((*one).clone()),
            _ => Subject::Command(head.clone()),
        };
        let subject = self.subject(subject);
        for (path, action) in &acted {
            let file = self.subject(Subject::File(path.clone()));
            self.act(file, *action);
        }
        let edits = acted
            .iter()
            .any(|(_, a)| matches!(a, Action::Edited | Action::Created | Action::Deleted));
        let reads = !acted.is_empty() && acted.iter().all(|(_, a)| *a == Action::Read);
        let bonus = if edits { EDIT_BONUS } else { COMMAND_BONUS };
        let text = match self.subjects[subject].subject {
            // A command's label says it: its record adds no text.
            Subject::Command(_) | Subject::Loose => String::new(),
            _ => format!("`{head}`"),
        };
        let head = self
            .record(subject, text, position, bonus)
            .unwrap_or(usize::MAX);
        Invocation {
            subject,
            head,
            reads,
        }
    }

    /// A command's output (or a result whose call is unknown): its status goes on the
    /// command; its error lines and the lines that hold facts become excerpts.
    fn output(&mut self, invocation: Option<Invocation>, text: &str, position: u32) {
        let subject = match invocation {
            Some(invocation) => invocation.subject,
            None => self.subject(Subject::Loose),
        };
        if let (Some(invocation), Some(status)) = (invocation, exit_status(text)) {
            let is_command = matches!(self.subjects[subject].subject, Subject::Command(_));
            if is_command {
                self.subjects[subject].status = Some(status);
            }
            if let Some(head) = self.excerpts.get_mut(invocation.head) {
                if !is_command {
                    head.text.push_str(&format!(" → exit {status}"));
                }
                if status != 0 {
                    head.bonus += FAILURE_BONUS;
                }
            }
        }
        let mut first_error = true;
        let lines: Vec<&str> = text.lines().collect();
        let mut listing = Listing::default();
        let reads = invocation.is_some_and(|i| i.reads);
        for (at, line) in lines.iter().enumerate() {
            if is_elision(line) || is_passed_frame(&lines, at) || listing.reads(line) {
                continue;
            }
            let line = strip_markup(line);
            self.note_named_lines(&line);
            if reads && let Some((number, code)) = shown_line(&line) {
                if code.trim().is_empty() {
                    continue; // a blank line of the file
                }
                let words: Vec<&str> = line.split_whitespace().collect();
                let text: String = words.join(" ").chars().take(MAX_EXCERPT_CHARS).collect();
                if let Some(excerpt) = self.excerpt(subject, text, position, 0) {
                    self.shown.push(ShownLine {
                        excerpt,
                        number,
                        code: code.to_owned(),
                    });
                }
                continue;
            }
            if is_page_markup(&line) {
                continue;
            }
            if is_error_line(&line) {
                let bonus = if first_error { FAILURE_BONUS } else { 0 };
                first_error = false;
                let line = with_its_message(&line, &lines[at + 1..]);
                self.excerpt(subject, fact_head(&line).to_owned(), position, bonus);
                continue;
            }
            for excerpt in excerpts(&line) {
                self.excerpt(subject, listing.place(excerpt), position, 0);
            }
        }
    }

    /// Words a person wrote (the user, or the agent around its commands): the excerpts
    /// of its lines that hold facts, under the file each names.
    fn prose(&mut self, text: &str, position: u32, bonus: u32) {
        // Code quoted in a fence is the file's, not what was found about it.
        let mut fenced = false;
        for line in text.lines() {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                continue;
            }
            if fenced {
                continue;
            }
            let line = strip_markup(line);
            self.note_named_lines(&line);
            let line = without_narration(&line);
            if is_error_line(line) {
                let subject = self.subject(Subject::Loose);
                self.excerpt(subject, fact_head(line).to_owned(), position, bonus);
                continue;
            }
            for excerpt in excerpts(line) {
                let path = line_facts(&excerpt)
                    .into_iter()
                    .find(|f| f.kind == FactKind::Path)
                    .map(|f| f.text.to_owned());
                let subject = match path {
                    Some(path) => self.subject(Subject::File(path)),
                    None => self.subject(Subject::Loose),
                };
                self.excerpt(subject, excerpt, position, bonus);
            }
        }
    }

    /// An earlier summary: its trail's entries read back as the excerpts of their
    /// subjects, its prose's lines as prose.
    fn read_summary(&mut self, summary: &str, position: u32) {
        let (prose, trail) = split_trail(summary);
        let trail = trail.unwrap_or_default();
        self.prose(prose, position, 0);
        for line in trail.lines() {
            let Some(entry) = line.strip_prefix("- ") else {
                continue;
            };
            let (subject, actions, status, rest) = parse_entry(entry);
            let is_command = matches!(subject, Subject::Command(_));
            let at = self.subject(subject);
            for action in actions {
                self.act(at, action);
            }
            if is_command {
                self.subjects[at].status = status;
                let bonus = COMMAND_BONUS
                    + if status.is_some_and(|s| s != 0) {
                        FAILURE_BONUS
                    } else {
                        0
                    };
                self.record(at, String::new(), position, bonus);
            }
            for piece in rest.split(SEPARATOR).filter(|p| !p.trim().is_empty()) {
                self.excerpt(at, piece.trim().to_owned(), position, 0);
            }
        }
    }

    /// The trail block for `answer`: the excerpts worth most per token that add what the
    /// answer does not hold in context, within `budget` tokens (header included). `None`
    /// when nothing fits or nothing is missing.
    pub fn block(&self, answer: &str, budget: u64, accountant: &TokenAccountant) -> Option<String> {
        let count = |text: &str| accountant.text_tokens(text);
        let header = count(TRAIL_HEADER) + 1;
        let mut budget = budget.checked_sub(header)?;
        // The estimate of each excerpt's cost is close but not exact (separators merge
        // with their neighbours): choose, render, and choose again with less room if the
        // block came out over.
        loop {
            let chosen = self.choose(answer, budget, &count);
            if chosen.is_empty() {
                return None;
            }
            let block = self.render(&chosen);
            let tokens = count(&block);
            if tokens <= budget + header || budget == 0 {
                return Some(block);
            }
            budget = budget.saturating_sub(tokens - (budget + header) + 4);
        }
    }

    /// `answer` with its trail block appended (when it needs one), within `room` tokens in
    /// all when the answer leaves room.
    pub fn write(&self, answer: &str, room: u64, accountant: &TokenAccountant) -> String {
        let answer_tokens = accountant.text_tokens(answer);
        match self.block(answer, room.saturating_sub(answer_tokens + 2), accountant) {
            Some(block) if answer.trim().is_empty() => block,
            Some(block) => format!("{answer}\n\n{block}"),
            None => answer.to_owned(),
        }
    }

    fn weight(&self, fact: FactId) -> u64 {
        let base = match self.contexts.fact(fact).0 {
            FactKind::Error => 6,
            FactKind::Path | FactKind::Url => 3,
            FactKind::Number | FactKind::Command => 2,
            _ => 1,
        };
        let repeated = self.mentions.get(fact as usize).is_some_and(|&m| m > 1);
        if repeated { base * 3 / 2 } else { base }
    }

    /// The excerpts to keep, by value per token, within `budget`.
    fn choose(&self, answer: &str, budget: u64, count: &dyn Fn(&str) -> u64) -> Vec<usize> {
        let mut held = vec![false; self.contexts.len()];
        for &f in &self.kept {
            held[f as usize] = true;
        }
        let in_answer: Vec<FactId> = self.contexts.held_by(answer);
        for &f in &in_answer {
            held[f as usize] = true;
        }
        let mut opened = vec![false; self.subjects.len()];
        let cost_of = |e: &Excerpt| count(&e.text) + 2;
        let label_cost = |s: usize| self.label_cost(s, count);
        let total = u64::from(self.positions.max(1));
        let value = |e: &Excerpt, held: &[bool]| -> u64 {
            if e.idle {
                return 0;
            }
            let info = &self.subjects[e.subject];
            let facts: u64 = e
                .facts
                .iter()
                .filter(|&&f| !held[f as usize])
                .map(|&f| self.weight(f))
                .sum();
            // What an excerpt records beyond its facts is recorded already where they are.
            if facts == 0 && !e.facts.is_empty() && !e.record {
                return 0;
            }
            let mut value = facts * 4 + u64::from(e.bonus);
            if info.touched {
                value *= 2;
            }
            // Newer is worth more, up to twice as much.
            value * (total + u64::from(e.position)) / total
        };
        let score = |value: u64, cost: u64| value * 1_000 / cost.max(1);
        let mut heap: BinaryHeap<(u64, std::cmp::Reverse<usize>)> = BinaryHeap::new();
        for (i, e) in self.excerpts.iter().enumerate() {
            let cost = cost_of(e) + label_cost(e.subject);
            let v = value(e, &held);
            if v > 0 {
                heap.push((score(v, cost), std::cmp::Reverse(i)));
            }
        }
        let mut chosen = Vec::new();
        let mut left = budget;
        while let Some((stale, std::cmp::Reverse(i))) = heap.pop() {
            let e = &self.excerpts[i];
            let cost = cost_of(e)
                + if opened[e.subject] {
                    0
                } else {
                    label_cost(e.subject)
                };
            let v = value(e, &held);
            if v == 0 {
                continue;
            }
            let fresh = score(v, cost);
            // Values only fall as more is held: a score that fell is put back and
            // compared again (lazy greedy).
            if fresh < stale && heap.peek().is_some_and(|&(top, _)| top > fresh) {
                heap.push((fresh, std::cmp::Reverse(i)));
                continue;
            }
            if cost > left {
                if left < 4 {
                    break;
                }
                continue;
            }
            left -= cost;
            for &f in &e.facts {
                held[f as usize] = true;
            }
            opened[e.subject] = true;
            chosen.push(i);
        }
        if left * 10 > budget {
            self.fill(&mut chosen, left, &mut opened, &in_answer, count);
        }
        chosen
    }

    /// Room left once every fact is held: the newest excerpts not taken yet fill it (a
    /// fact again beside other words is context the budget has room for; a summary far
    /// smaller than its room leaves the run under its target for nothing). Never what the
    /// answer says already.
    fn fill(
        &self,
        chosen: &mut Vec<usize>,
        mut left: u64,
        opened: &mut [bool],
        in_answer: &[FactId],
        count: &dyn Fn(&str) -> u64,
    ) {
        let mut taken = vec![false; self.excerpts.len()];
        for &i in chosen.iter() {
            taken[i] = true;
        }
        for (i, e) in self.excerpts.iter().enumerate().rev() {
            let answered = !e.facts.is_empty() && e.facts.iter().all(|f| in_answer.contains(f));
            if taken[i] || e.text.is_empty() || answered || e.idle {
                continue;
            }
            let cost = count(&e.text)
                + 2
                + if opened[e.subject] {
                    0
                } else {
                    self.label_cost(e.subject, count)
                };
            if cost > left {
                if left < 4 {
                    break;
                }
                continue;
            }
            left -= cost;
            opened[e.subject] = true;
            chosen.push(i);
        }
    }

    /// What a subject's label costs in a block.
    fn label_cost(&self, subject: usize, count: &dyn Fn(&str) -> u64) -> u64 {
        let s = &self.subjects[subject];
        match &s.subject {
            Subject::Loose => 1,
            Subject::File(path) => count(path) + 2 + 2 * s.actions.len() as u64,
            Subject::Command(label) => count(label) + 8,
        }
    }

    /// The block of the `chosen` excerpts: one line per subject, subjects the rest of the
    /// run touches first, then the newest; excerpts in the order they were said.
    fn render(&self, chosen: &[usize]) -> String {
        let mut by_subject: HashMap<usize, Vec<usize>> = HashMap::new();
        for &i in chosen {
            by_subject
                .entry(self.excerpts[i].subject)
                .or_default()
                .push(i);
        }
        let mut subjects: Vec<(usize, Vec<usize>)> = by_subject.into_iter().collect();
        for (_, excerpts) in &mut subjects {
            crate::sort::sort_by_key(excerpts, |&i| (self.excerpts[i].position, i));
        }
        let newest = |excerpts: &[usize]| {
            excerpts
                .iter()
                .map(|&i| self.excerpts[i].position)
                .max()
                .unwrap_or(0)
        };
        crate::sort::sort_by(&mut subjects, |(a, ea), (b, eb)| {
            self.subjects[*b]
                .touched
                .cmp(&self.subjects[*a].touched)
                .then(newest(eb).cmp(&newest(ea)))
                .then(a.cmp(b))
        });
        let mut out = String::from(TRAIL_HEADER);
        for (subject, excerpts) in subjects {
            let texts: Vec<&str> = excerpts
                .iter()
                .map(|&i| self.excerpts[i].text.as_str())
                .filter(|t| !t.is_empty())
                .collect();
            let info = &self.subjects[subject];
            match &info.subject {
                Subject::Loose => {
                    for text in texts {
                        out.push_str("\n- ");
                        out.push_str(text);
                    }
                }
                Subject::File(path) => {
                    out.push_str("\n- ");
                    out.push_str(path);
                    if !info.actions.is_empty() {
                        let actions: Vec<&str> = info.actions.iter().map(|a| a.as_str()).collect();
                        out.push_str(&format!(" ({})", actions.join(", ")));
                    }
                    if !texts.is_empty() {
                        out.push_str(": ");
                        out.push_str(&texts.join(SEPARATOR));
                    }
                }
                Subject::Command(label) => {
                    out.push_str(&format!("\n- `{label}`"));
                    if let Some(status) = info.status {
                        out.push_str(&format!(" → exit {status}"));
                    }
                    if !texts.is_empty() {
                        out.push_str(": ");
                        out.push_str(&texts.join(SEPARATOR));
                    }
                }
            }
        }
        out
    }
}

/// Is this tool-result text a cleared result's placeholder? Its first line says so (a
/// placeholder of an earlier version is that line alone). LIGHT writes placeholders
/// (`crate::prune::cleared_placeholder`); the trail reads them.
pub fn is_cleared(text: &str) -> bool {
    let first = text.lines().next().unwrap_or("");
    first.starts_with("[output of ")
        && first.ends_with(" tokens]")
        && first.contains("cleared by compactor")
}

/// What a tool result says of its output: a placeholder's lines after its first, which is
/// compactor's words (the tool, the tokens cleared), not the output's; any other result
/// whole.
pub fn output_lines(text: &str) -> &str {
    if is_cleared(text) {
        text.split_once('\n').map_or("", |(_, rest)| rest)
    } else {
        text
    }
}

/// What the user's words are worth beyond their facts.
const USER_BONUS: u32 = 6;
/// What a command's record is worth beyond its facts.
const COMMAND_BONUS: u32 = 2;
/// What an edit's record is worth.
const EDIT_BONUS: u32 = 8;
/// What a failure (a non-zero exit, the first error line of an output) is worth.
const FAILURE_BONUS: u32 = 8;

/// The distinct facts of `messages` (each message's text), as a set of their texts.
pub fn fact_set<'a>(messages: impl IntoIterator<Item = &'a Message>) -> HashSet<String> {
    let mut set = HashSet::new();
    for message in messages {
        for fact in crate::facts::facts(&message.text()) {
            if !set.contains(fact.text) {
                set.insert(fact.text.to_owned());
            }
        }
    }
    set
}

/// A summary's text without its block of standing instructions and its trail block: what
/// its summarizer wrote.
pub fn prose(summary: &str) -> &str {
    match split_trail(crate::standing::without_block(summary)) {
        (prose, Some(_)) => prose.trim_end(),
        (all, None) => all,
    }
}

/// A summary's text split where its trail block starts: what is before it, and the block
/// (its header, then one `- ` entry a line), `None` where it has none.
pub fn split_trail(summary: &str) -> (&str, Option<&str>) {
    match summary.find(TRAIL_HEADER) {
        Some(at) => (&summary[..at], Some(&summary[at..])),
        None => (summary, None),
    }
}

/// Reads an entry the trail wrote back into its subject, actions, status and excerpts.
fn parse_entry(entry: &str) -> (Subject, Vec<Action>, Option<i64>, &str) {
    if let Some(rest) = entry.strip_prefix('`')
        && let Some((label, after)) = rest.split_once('`')
    {
        let (status, excerpts) = match after.split_once(": ") {
            Some((status, excerpts)) => (status, excerpts),
            None => (after, ""),
        };
        let status = status
            .trim()
            .strip_prefix("→ exit ")
            .and_then(|s| s.trim().parse().ok());
        return (
            Subject::Command(label.to_owned()),
            Vec::new(),
            status,
            excerpts,
        );
    }
    let (head, rest) = match entry.split_once(": ") {
        Some((head, rest)) => (head, rest),
        None => (entry, ""),
    };
    let (path, actions) = match head.split_once(" (") {
        Some((path, actions)) => (
            path,
            actions
                .trim_end_matches(')')
                .split(", ")
                .filter_map(Action::from_word)
                .collect(),
        ),
        None => (head, Vec::new()),
    };
    let is_file = !path.contains(' ')
        && line_facts(path)
            .iter()
            .any(|f| f.kind == FactKind::Path && f.text == path);
    if is_file {
        (Subject::File(path.to_owned()), actions, None, rest)
    } else {
        (Subject::Loose, Vec::new(), None, entry)
    }
}

/// The excerpts of `line` that hold its facts: the line itself when it is short enough,
/// else the words around each fact (joined where they overlap). A line of fewer than two
/// words holds nothing a reader could use (a bare path of a listing, `263- ):`).
pub fn excerpts(line: &str) -> Vec<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let worded = words
        .iter()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .count();
    if worded < 2 {
        return Vec::new();
    }
    let facts = line_facts(line);
    if facts.is_empty() {
        return Vec::new();
    }
    // A line of a numbered listing (`cat -n`, `grep -n`, `nl`): its number and what
    // stands there first.
    let numbered = words[0]
        .trim_end_matches([':', '-', '|'])
        .bytes()
        .all(|b| b.is_ascii_digit())
        && facts.len() == 1
        && facts[0].kind == FactKind::Number
        && words[0].starts_with(facts[0].text);
    if numbered && words.len() > LISTING_WORDS + 1 {
        return vec![words[..=LISTING_WORDS].join(" ")];
    }
    let collapsed = words.join(" ");
    if collapsed.chars().count() <= MAX_EXCERPT_CHARS {
        return without_long_lists(&words, &facts);
    }
    // Windows of words around each word that holds a fact.
    let mut windows: Vec<(usize, usize)> = Vec::new();
    for (at, word) in words.iter().enumerate() {
        if facts.iter().any(|f| word.contains(f.text)) {
            let start = at.saturating_sub(WORDS_BEFORE);
            let end = (at + WORDS_AFTER + 1).min(words.len());
            match windows.last_mut() {
                Some(last) if start <= last.1 => last.1 = end,
                _ => windows.push((start, end)),
            }
        }
    }
    windows
        .into_iter()
        .flat_map(|(start, end)| without_long_lists(&words[start..end], &facts))
        .map(|text| text.chars().take(MAX_EXCERPT_CHARS * 2).collect::<String>())
        .filter(|text| text.split_whitespace().count() >= 2)
        .collect()
}

/// A numbered line of a file's listing (`  119\tdef _import(module):`, `119: x = 1`,
/// and through `grep -n`, `263-   263\t# sort`): the number and the code after it,
/// empty for a blank line of the file (`   266`).
fn shown_line(line: &str) -> Option<(u64, &str)> {
    let trimmed = line.trim_start();
    let trimmed = grep_numbered(trimmed).unwrap_or(trimmed);
    let digits = trimmed.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &trimmed[digits..];
    let code = rest
        .strip_prefix('\t')
        .or_else(|| rest.strip_prefix(": "))
        .or_else(|| rest.strip_prefix(' '))
        .or_else(|| rest.trim().is_empty().then_some(""))?;
    let number = trimmed[..digits].parse().ok()?;
    Some((number, code))
}

/// A numbered listing's line after the count `grep -n` put before it (`263-   263\t…`,
/// `263:   263\t…`): from the listing's own number.
fn grep_numbered(line: &str) -> Option<&str> {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    let inner = line.get(digits..)?.strip_prefix(['-', ':'])?.trim_start();
    (digits > 0 && inner.starts_with(|c: char| c.is_ascii_digit())).then_some(inner)
}

/// Does `code` open a definition: a function, a class, a type? Those lines are a file's
/// outline.
fn is_definition(code: &str) -> bool {
    const OPENERS: &[&str] = &[
        "def ",
        "async def ",
        "class ",
        "fn ",
        "pub fn ",
        "pub(crate) fn ",
        "async fn ",
        "pub async fn ",
        "struct ",
        "pub struct ",
        "enum ",
        "pub enum ",
        "trait ",
        "pub trait ",
        "impl ",
        "impl<",
        "function ",
        "async function ",
        "export function ",
        "export default function ",
        "export class ",
        "export async function ",
        "interface ",
        "export interface ",
        "func ",
        "type ",
        "export type ",
    ];
    let code = code.trim_start();
    OPENERS.iter().any(|o| code.starts_with(o))
}

/// The number `text` starts with.
fn leading_number(text: &str) -> Option<u64> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    text[..digits].parse().ok()
}

/// Is `line` a traceback frame (`File "/x.py", line 3, in f`) a reader can pass over: a
/// library's (the interpreter's, an installed package's), or one the call went on from
/// to a later frame of the same traceback? The innermost frame of the code under work is
/// where it failed; the others are the way there.
fn is_passed_frame(lines: &[&str], at: usize) -> bool {
    let is_frame = |line: &str| {
        let line = line.trim_start();
        line.starts_with("File \"") && line.contains("\", line ")
    };
    if !is_frame(lines[at]) {
        return false;
    }
    const LIBRARY: &[&str] = &["site-packages", "/lib/python", "<frozen", "dist-packages"];
    if LIBRARY.iter().any(|l| lines[at].contains(l)) {
        return true;
    }
    // A later frame before the traceback ends (at its first line not indented: the
    // exception) means the call went on.
    lines[at + 1..]
        .iter()
        .take_while(|line| is_frame(line) || line.starts_with([' ', '\t']))
        .any(|line| is_frame(line) && !LIBRARY.iter().any(|l| line.contains(l)))
}

/// Where a recursive listing (`ls -R`) is: each block of names follows its directory's
/// line (`./src/domains:`). A line of names quoted without it says which files exist, not
/// where; the trail writes the directory after them, relative to the listing's first.
#[derive(Debug, Default)]
struct Listing<'a> {
    root: Option<&'a str>,
    dir: Option<&'a str>,
}

impl<'a> Listing<'a> {
    /// Takes `line` when it opens or closes a directory's block (nothing to quote).
    fn reads(&mut self, line: &'a str) -> bool {
        if line.trim().is_empty() {
            self.dir = None;
            return false;
        }
        let Some(dir) = line.strip_suffix(':') else {
            return false;
        };
        let is_dir = !dir.is_empty()
            && !dir.contains(char::is_whitespace)
            && (dir.contains('/') || dir == ".");
        if !is_dir {
            return false;
        }
        let root = *self.root.get_or_insert(dir);
        self.dir = dir
            .strip_prefix(root)
            .map(|rest| rest.trim_start_matches('/'))
            .filter(|rest| !rest.is_empty())
            .or((dir != root).then_some(dir));
        true
    }

    /// `excerpt`, with the directory it was listed in (its last two names: enough to
    /// tell it, where the whole path would cost the excerpt a third again).
    fn place(&self, excerpt: String) -> String {
        match self.dir {
            Some(dir) => {
                let short = dir
                    .rmatch_indices('/')
                    .nth(1)
                    .map_or(dir, |(at, _)| &dir[at + 1..]);
                format!("{excerpt} (in {short})")
            }
            None => excerpt,
        }
    }
}

/// Is `line` a notice that output was cut (`57447 characters elided`, `[120 lines
/// truncated]`)? Its number counts nothing of the work.
fn is_elision(line: &str) -> bool {
    let lower = crate::case::lowercase(line);
    ["elided", "truncated", "omitted"]
        .iter()
        .any(|w| lower.contains(w))
        && ["characters", "chars", "lines", "bytes", "tokens"]
            .iter()
            .any(|w| lower.contains(w))
        && lower.split_whitespace().count() <= 8
}

/// Is `line` a page's styling or markup, not its text: a style rule (`table td.code {
/// width:100%; }`, `pre { color: #575757; }`), or an element with attributes (`<td
/// class="code">`, `<a href="#" onclick="…">`)? An output that printed a web page (a
/// server's error page) holds its message in a few lines among hundreds of these; their
/// colours and selectors are not facts a model could use.
fn is_page_markup(line: &str) -> bool {
    let line = line.trim();
    let style = line.split_once('{').is_some_and(|(selector, body)| {
        let selector = selector.trim();
        !selector.is_empty()
            && !selector.ends_with('=')
            && !selector.contains('(')
            && body.rsplit_once(';').is_some_and(|(declarations, _)| {
                declarations.split(';').any(|d| {
                    d.split_once(':')
                        .is_some_and(|(p, v)| is_property(p) && !v.trim().is_empty())
                })
            })
    });
    let element = line.strip_prefix('<').is_some_and(|rest| {
        rest.starts_with(|c: char| c.is_ascii_alphabetic())
            && (rest.contains("=\"") || rest.contains("='"))
    });
    style || element
}

/// A style property's name: lowercase letters and hyphens (`font-family`, `color`).
fn is_property(name: &str) -> bool {
    let name = name.trim();
    !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '-')
}

/// The most facts an excerpt lists in a row with no other word between them: a longer run
/// (a listing of file names) is cut into excerpts of this many.
pub const MAX_BARE_RUN: usize = 8;

/// Is `word` one of `facts` by itself (a path, a number, a name, …), with no other word
/// in it?
fn is_fact_word(word: &str, facts: &[Fact<'_>]) -> bool {
    let bare = word.trim_matches(|c: char| !c.is_alphanumeric());
    !bare.is_empty() && facts.iter().any(|f| f.text == bare || f.text == word)
}

/// The longest run of facts in `line` with no other word between them.
pub fn longest_bare_run(line: &str) -> usize {
    let facts = line_facts(line);
    let mut longest = 0;
    let mut run = 0;
    for word in line.split_whitespace() {
        if is_fact_word(word, &facts) {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    longest
}

/// `words` joined, cut where facts follow each other more than [`MAX_BARE_RUN`] times.
fn without_long_lists(words: &[&str], facts: &[Fact<'_>]) -> Vec<String> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut run = 0;
    for (at, word) in words.iter().enumerate() {
        if is_fact_word(word, facts) {
            run += 1;
            if run > MAX_BARE_RUN {
                out.push(words[start..at].join(" "));
                start = at;
                run = 1;
            }
        } else {
            run = 0;
        }
    }
    out.push(words[start..].join(" "));
    out
}

/// `line` without the narration an agent opens it with ("Let me check", "Now I'll look
/// at"): what is left names what it is about.
fn without_narration(line: &str) -> &str {
    let trimmed = without_label(line.trim().trim_start_matches("- ").trim_start());
    const OPENERS: [&str; 10] = [
        "Let me ",
        "Now let me ",
        "Now, let me ",
        "First, let me ",
        "Next, let me ",
        "I'll ",
        "Now I'll ",
        "I will ",
        "Let's ",
        "I need to ",
    ];
    for opener in OPENERS {
        if let Some(rest) = trimmed.strip_prefix(opener) {
            // The verb after the opener goes too ("check", "look at").
            let rest = rest.trim_start();
            let rest = rest.split_once(' ').map_or("", |(_, r)| r);
            let rest = rest.strip_prefix("at ").unwrap_or(rest);
            return rest.trim();
        }
    }
    trimmed
}

/// Is a tool of this name a shell (its command needs no name in front)?
fn looks_like_shell(tool: &str) -> bool {
    let tool = tool.to_ascii_lowercase();
    [
        "bash", "shell", "sh", "exec", "run", "terminal", "command", "execute",
    ]
    .iter()
    .any(|s| tool.contains(s))
}

/// A file tool's call: the file, what it did, and the excerpt that records it
/// (`str_replace_editor str_replace src/a.py "old" → "new"`).
fn file_tool(call: &ToolCall) -> Option<(String, Action, String)> {
    let args = call.arguments.trim();
    if !args.starts_with('{') {
        return None;
    }
    let path = [
        "path",
        "file_path",
        "filePath",
        "filename",
        "file",
        "absolute_path",
        "target_file",
    ]
    .iter()
    .find_map(|k| json_string_field(args, k))?;
    let sub = json_string_field(args, "command").filter(|c| !c.contains(' '));
    let name = call.name.to_ascii_lowercase();
    let action = match sub.as_deref() {
        Some("view") => Action::Read,
        Some("create") => Action::Created,
        Some("str_replace" | "insert" | "edit" | "undo_edit" | "replace") => Action::Edited,
        Some(_) => return None,
        None if ["write", "create", "save"].iter().any(|w| name.contains(w)) => Action::Created,
        None if ["edit", "replace", "patch", "insert"]
            .iter()
            .any(|w| name.contains(w)) =>
        {
            Action::Edited
        }
        None if ["delete", "remove"].iter().any(|w| name.contains(w)) => Action::Deleted,
        None if ["grep", "search", "find", "glob"]
            .iter()
            .any(|w| name.contains(w)) =>
        {
            Action::Searched
        }
        None => Action::Read,
    };
    let mut head = call.name.clone();
    if let Some(sub) = &sub {
        head.push(' ');
        head.push_str(sub);
    }
    head.push(' ');
    head.push_str(&path);
    let first_line = |key: &str| {
        json_string_field(args, key).map(|v| {
            let line = v.trim().lines().next().unwrap_or("").trim().to_owned();
            let cut: String = line.chars().take(MAX_EDIT_CHARS).collect();
            if cut.len() < line.len() {
                format!("{cut}…")
            } else {
                cut
            }
        })
    };
    if let (Some(old), Some(new)) = (
        first_line("old_str").or_else(|| first_line("old_string")),
        first_line("new_str").or_else(|| first_line("new_string")),
    ) {
        head.push_str(&format!(" \"{old}\" → \"{new}\""));
    } else if let Some(range) = view_range(args) {
        head.push_str(&format!(" lines {range}"));
    }
    Some((path, action, format!("`{head}`")))
}

/// A view's line range (`"view_range": [10, 40]`), as `10-40`.
fn view_range(args: &str) -> Option<String> {
    let at = args.find("\"view_range\"")?;
    let rest = &args[at..];
    let open = rest.find('[')?;
    let close = rest[open..].find(']')? + open;
    let numbers: Vec<&str> = rest[open + 1..close]
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .collect();
    (numbers.len() == 2).then(|| format!("{}-{}", numbers[0], numbers[1]))
}

/// A tool call that is neither a shell nor a file tool: its name and its short values.
fn tool_head(call: &ToolCall) -> String {
    let mut head = call.name.clone();
    let args = call.arguments.trim();
    if !args.starts_with('{') {
        if !args.is_empty() {
            head.push(' ');
            head.push_str(&command_head(args, MAX_COMMAND_CHARS));
        }
        return head;
    }
    let mut rest = args;
    let mut values = 0;
    while values < 3 {
        let Some(start) = rest.find(": \"").or_else(|| rest.find(":\"")) else {
            break;
        };
        let after = &rest[start..];
        let quote = after.find('"').unwrap_or(0) + 1;
        let body = &after[quote..];
        let Some(end) = body.find('"') else {
            break;
        };
        let value = &body[..end];
        if !value.is_empty() && value.len() <= 80 && !value.contains('\\') {
            head.push(' ');
            head.push_str(value);
            values += 1;
        }
        rest = &body[end + 1..];
    }
    head
}

/// The files a shell command acts on, with what it does to each: reading (`cat`, `sed
/// -n`, `head`), searching (`grep`), writing (`>`, `tee`, `cat <<`), editing (`sed -i`,
/// `patch`), deleting (`rm`), running (`python f.py`) and testing (`pytest f`).
pub fn file_actions(command: &str) -> Vec<(String, Action)> {
    let first = command.lines().next().unwrap_or("");
    let mut out: Vec<(String, Action)> = Vec::new();
    for segment in first.split(['|', ';', '&']) {
        let words: Vec<&str> = segment.split_whitespace().collect();
        let Some(&program) = words.first() else {
            continue;
        };
        let program = program.rsplit('/').next().unwrap_or(program);
        let redirect = words
            .iter()
            .position(|w| *w == ">" || *w == ">>")
            .and_then(|at| words.get(at + 1))
            .copied()
            .or_else(|| {
                words
                    .iter()
                    .find_map(|w| w.strip_prefix(">>").or_else(|| w.strip_prefix('>')))
                    .filter(|w| !w.is_empty() && !w.starts_with('&'))
            });
        let in_place = words.iter().any(|w| *w == "-i" || w.starts_with("-i"));
        let testing = program.contains("pytest")
            || words
                .windows(2)
                .any(|w| w == ["-m", "pytest"] || w == ["-m", "unittest"])
            || matches!(program, "jest" | "mocha" | "vitest" | "tox" | "nox");
        let action = match program {
            _ if testing => Action::Tested,
            "cat" | "head" | "tail" | "less" | "more" | "nl" | "wc" | "awk" | "view" | "bat" => {
                Action::Read
            }
            "sed" | "perl" if in_place => Action::Edited,
            "sed" => Action::Read,
            "grep" | "rg" | "ag" | "egrep" | "fgrep" => Action::Searched,
            "rm" | "unlink" => Action::Deleted,
            "patch" | "ed" => Action::Edited,
            "touch" | "tee" => Action::Created,
            "python" | "python3" | "node" | "bash" | "sh" | "ruby" | "perl" | "php" | "go"
            | "deno" | "bun" | "tsx" | "ts-node" => Action::Ran,
            _ => Action::Read,
        };
        for word in &words[1..] {
            let word = word.trim_matches(['"', '\'', '`', '(', ')']);
            if Some(word) == redirect.map(|r| r.trim_matches(['"', '\''])) {
                continue;
            }
            // A file, not a directory or a pattern (`'s/a/b/'`): its last part has an
            // extension, or is a known name.
            let name = word.rsplit('/').next().unwrap_or(word);
            if line_facts(word)
                .iter()
                .any(|f| f.kind == FactKind::Path && f.text == word)
                && !word.starts_with('-')
                && (name.contains('.') || name.chars().next().is_some_and(char::is_uppercase))
            {
                out.push((word.to_owned(), action));
            }
        }
        if let Some(target) = redirect {
            let target = target.trim_matches(['"', '\'']);
            if target != "/dev/null" && !target.starts_with('&') {
                let action = if segment.contains(">>") {
                    Action::Edited
                } else {
                    Action::Created
                };
                out.push((target.to_owned(), action));
            }
        }
    }
    out.retain(|(path, _)| path != "/dev/null");
    out
}

#[cfg(test)]
mod tests;
