//! Facts: what a later turn needs from earlier text, found in one place.
//!
//! A fact is a file path, a number of three or more digits, a line naming an error or an
//! exception, a URL, an artifact reference, a qualified identifier, or a command an agent
//! ran (with its exit status when the output shows one). The extractive summarizer ranks
//! and keeps them, LIGHT's placeholder for a cleared tool result keeps the most telling
//! ones, the loss receipt counts the ones a run dropped, and the test suite's fidelity
//! report measures how many of a conversation's paths, numbers and error lines survive
//! compaction: all of them read facts through this module, so they agree on what a fact is.
//!
//! Markup is not a fact: a closing tag (`</output>`) is not the path `/output`, and a method
//! call (`content.split`) is not a file — a name without a slash is a file only with a
//! known extension (or a well-known name such as `Makefile`).

use std::borrow::Cow;

use crate::message::{Message, Part, Role};

/// What kind of fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(rename_all = "camelCase")
)]
#[non_exhaustive]
pub enum FactKind {
    /// A line naming an error or an exception (its head, at most [`MAX_FACT_CHARS`]).
    Error,
    /// A file path (`src/lib.rs`, `./django/views.py`, `setup.cfg`).
    Path,
    /// A number of three or more digits (`1474`, `13230`).
    Number,
    /// A command an agent ran: the first line of a tool call's command, or of a shell
    /// block a text-action agent wrote (see [`commands`]). Never found by [`line_facts`].
    Command,
    /// A URL (`https://docs.rs/serde`).
    Url,
    /// An artifact reference (`«artifact:file~report-7»`).
    Artifact,
    /// A qualified name: two or more identifiers joined by `.` or `::` (`fields.Nested`,
    /// `TimeDelta.serialize`, `std::io::Error`), each part at least two characters long (so
    /// `e.g` is not one) and not a path, a URL or a domain name (`example.com`).
    Identifier,
}

impl FactKind {
    /// Every kind, in the order reports list them.
    pub const ALL: [FactKind; 7] = [
        FactKind::Path,
        FactKind::Number,
        FactKind::Error,
        FactKind::Command,
        FactKind::Url,
        FactKind::Artifact,
        FactKind::Identifier,
    ];

    /// The kind's name as serialized: `path`, `number`, `error`, `command`, `url`,
    /// `artifact`, `identifier`.
    pub fn as_str(self) -> &'static str {
        match self {
            FactKind::Error => "error",
            FactKind::Path => "path",
            FactKind::Number => "number",
            FactKind::Command => "command",
            FactKind::Url => "url",
            FactKind::Artifact => "artifact",
            FactKind::Identifier => "identifier",
        }
    }
}

/// One fact: its kind and its text, a slice of the text it was found in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fact<'a> {
    /// What kind of fact.
    pub kind: FactKind,
    /// The fact's text, verbatim.
    pub text: &'a str,
}

/// The longest fact, in characters: a longer error line counts by its head (cut at a
/// character boundary), which is what names the error.
pub const MAX_FACT_CHARS: usize = 160;

/// Characters that end a word when looking for paths.
pub const WORD_BREAKS: &str = "\"'`()[]{}<>,;=|";

/// Extensions that make a name without a slash a file. A list, not a pattern: `x.split`,
/// `self.name` and `fields.Nested` have the shape of a file name too. `log` is here and
/// `console.log` is refused by name.
const FILE_EXTENSIONS: &[&str] = &[
    "c", "cc", "cfg", "cjs", "conf", "cpp", "cs", "css", "csv", "diff", "env", "gif", "go",
    "gradle", "h", "hpp", "htm", "html", "ini", "ipynb", "java", "jpeg", "jpg", "js", "json",
    "jsonl", "jsx", "kt", "lock", "log", "lua", "md", "mjs", "patch", "pdf", "php", "pl", "png",
    "proto", "py", "pyc", "pyi", "pyx", "rb", "rs", "rst", "scss", "sh", "sql", "svg", "swift",
    "tar", "toml", "ts", "tsx", "txt", "vue", "wasm", "xml", "yaml", "yml", "zip", "zsh",
];

/// Files known by a name without an extension.
const FILE_NAMES: &[&str] = &["Makefile", "Dockerfile", "Gemfile", "Rakefile", "Procfile"];

/// Last parts that make a dotted name a domain, not an identifier.
const DOMAINS: &[&str] = &["com", "org", "net", "edu", "gov"];

/// The line without an agent format's label ahead of its words (`THOUGHT: I'll read …`,
/// `Reasoning: …`): the label says who speaks, not what.
pub fn without_label(text: &str) -> &str {
    const LABELS: &[&str] = &["thought", "thoughts", "discussion", "reasoning", "analysis"];
    match text.split_once(':') {
        Some((label, rest)) if LABELS.contains(&crate::case::lowercase(label.trim()).as_str()) => {
            rest.trim_start()
        }
        _ => text,
    }
}

/// Is `line` an error's label alone (`ERROR:`, `Error:`), its message on the lines after
/// it?
pub fn is_error_label(line: &str) -> bool {
    let label = line.trim();
    label.split_whitespace().nth(1).is_none() && label.ends_with(':') && is_error_line(label)
}

/// An error line that is a label alone (`ERROR:`), with the first line after it that says
/// something: the error a reader needs (`ERROR: No replacement was performed, …`).
pub fn with_its_message<'a>(line: &'a str, after: &[&str]) -> Cow<'a, str> {
    if !is_error_label(line) {
        return Cow::Borrowed(line);
    }
    match after.iter().map(|l| l.trim()).find(|l| !l.is_empty()) {
        Some(message) => Cow::Owned(labelled(line.trim(), message)),
        None => Cow::Borrowed(line),
    }
}

/// An error's `label` with its `message`, spaced as one line.
pub fn labelled(label: &str, message: &str) -> String {
    let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
    format!("{label} {message}")
}

/// Does `line` report an error or an exception: name one (`TypeError: …`,
/// `java.io.IOException: …`, a pytest `E   AssertionError`), or mark one (`error: …`,
/// `error[E0308]: …`, `ERROR …`, `Error during …`)?
///
/// A line that only mentions the word is not one: code (`raise ValueError(`, `except
/// ParseError as e:`, `import …Error`), a half statement ending in `(`, `,` or `{`, and
/// narration (`Let me check the error`, `No syntax error.`) name no error that happened.
pub fn is_error_line(line: &str) -> bool {
    // ASCII case-insensitive search without allocating first: this runs on every line of
    // million-token sessions, and most lines have neither word.
    if !contains_ignore_case(line, "error") && !contains_ignore_case(line, "exception") {
        return false;
    }
    let text = line.trim();
    if text.ends_with(['(', ',', '{', '[', '\\']) || is_code(text) {
        return false;
    }
    let mut words = text.split_whitespace().peekable();
    let mut first = true;
    while let Some(word) = words.next() {
        let bare = word.trim_start_matches(|c: char| !c.is_alphanumeric());
        // `Error during parsing`, `ERROR tests/x.py`, `error: could not compile` — not a
        // heading (`ERRORS:`) standing alone.
        let first_word = bare.trim_end_matches([':', '!']);
        if first
            && (matches!(first_word, "Error" | "ERROR" | "error") || bare.starts_with("error["))
            && words.peek().is_some()
        {
            return true;
        }
        first = false;
        let name = bare.trim_end_matches([':', '"', '\'', ';']);
        let named = name.ends_with("Error") || name.ends_with("Exception");
        // A name followed by its message (`TypeError: …`) or ending the line (pytest's
        // `E       AssertionError`); `error:` or `ERROR` anywhere (`src/a.rs:3:5: error: …`).
        if named && (bare.ends_with(':') || words.peek().is_none()) && !name.contains('(') {
            return true;
        }
        if bare.eq_ignore_ascii_case("error:") || bare == "ERROR" || bare.starts_with("error[") {
            return true;
        }
    }
    false
}

/// Does `text` (trimmed) start like a line of code rather than a report: a statement that
/// raises, catches, imports or defines?
fn is_code(text: &str) -> bool {
    // A listing's line number (`615-`, `615:`, `  615\t`) is not the line's start.
    let text = text
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim_start_matches([':', '-', '|', '\t'])
        .trim_start();
    const STARTS: [&str; 16] = [
        "raise ", "except ", "except:", "catch ", "catch(", "} catch", "throw ", "throws ", "def ",
        "class ", "import ", "from ", "return ", "assert ", "#", "//",
    ];
    STARTS.iter().any(|s| text.starts_with(s))
        || (text.starts_with("if ") || text.starts_with("elif ")) && text.ends_with(':')
}

fn contains_ignore_case(haystack: &str, needle: &str) -> bool {
    find_ignore_case(haystack, needle).is_some()
}

/// The head of `line` that counts as the fact: trimmed, at most [`MAX_FACT_CHARS`].
pub fn fact_head(line: &str) -> &str {
    let line = line.trim();
    match line.char_indices().nth(MAX_FACT_CHARS) {
        Some((cut, _)) => line[..cut].trim_end(),
        None => line,
    }
}

/// Is `word` (already cut at whitespace and quotes) a file path?
fn is_path(word: &str) -> bool {
    if word.len() < 3 || word.len() > 200 || word.contains("://") || word.contains("...") {
        return false;
    }
    if FILE_NAMES.contains(&word) {
        return true;
    }
    if !word
        .chars()
        .all(|c| c.is_alphanumeric() || "/._-~+@".contains(c))
    {
        return false;
    }
    let has_letter = word.chars().any(char::is_alphabetic);
    // A directory needs to look like one: rooted, or three parts deep ("and/or" is not).
    let parts = word.split('/').filter(|s| !s.is_empty()).count();
    let rooted = ["/", "./", "../", "~/"].iter().any(|p| word.starts_with(p));
    let slash = word.contains('/') && ((rooted && parts >= 1) || parts >= 3);
    let file = word.rsplit_once('.').is_some_and(|(stem, ext)| {
        let name = stem.rsplit('/').next().unwrap_or(stem);
        let known = stem.contains('/') || (FILE_EXTENSIONS.contains(&ext) && stem != "console");
        // "e.g" and "i.e" are not files: a bare name needs a stem of two characters.
        known
            && (stem.len() >= 2 || stem.contains('/'))
            && !stem.ends_with('.')
            && (1..=5).contains(&ext.len())
            && ext.chars().all(|c| c.is_ascii_alphanumeric())
            && ext.chars().any(|c| c.is_ascii_lowercase())
            && name.chars().any(char::is_alphanumeric)
    });
    has_letter && (slash || file)
}

/// Is `word` a qualified name (see [`FactKind::Identifier`])?
fn is_identifier(word: &str) -> bool {
    let separator = if word.contains("::") { "::" } else { "." };
    if separator == "::" && word.contains('.') {
        return false;
    }
    let mut parts = 0;
    let mut last = "";
    for part in word.split(separator) {
        let mut chars = part.chars();
        let starts = chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
        if !starts || part.len() < 2 || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return false;
        }
        parts += 1;
        last = part;
    }
    parts >= 2 && !DOMAINS.contains(&last)
}

/// Cuts the punctuation a sentence puts around a path (`src/lib.rs:` → `src/lib.rs`).
fn trim_word(word: &str) -> &str {
    word.trim_start_matches(':')
        .trim_end_matches(['.', ':', '!', '?'].as_slice())
}

/// The words of `line` with the character before each: split at whitespace and
/// [`WORD_BREAKS`].
fn words(line: &str) -> impl Iterator<Item = (Option<char>, &str)> {
    let mut before = None;
    let mut start = 0;
    let mut out = Vec::new();
    for (at, c) in line.char_indices() {
        if c.is_whitespace() || WORD_BREAKS.contains(c) {
            if at > start {
                out.push((before, &line[start..at]));
            }
            before = Some(c);
            start = at + c.len_utf8();
        }
    }
    if start < line.len() {
        out.push((before, &line[start..]));
    }
    out.into_iter()
}

/// The URL a word starts with, without the punctuation a sentence puts after it.
fn url(word: &str) -> Option<&str> {
    let scheme = ["https://", "http://"]
        .into_iter()
        .find(|s| word.starts_with(s))?;
    let url = word.trim_end_matches(['.', ',', ':', ';', '!', '?', '»'].as_slice());
    (url.len() > scheme.len() + 2).then_some(url)
}

/// The artifact references of `text` («artifact:type~id»), in order, repeats included.
pub fn artifact_spans(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        loop {
            let start = rest.find("«artifact:")?;
            let candidate = &rest[start..];
            let end = candidate.find('»')? + '»'.len_utf8();
            let reference = &candidate[..end];
            rest = &candidate[end..];
            if !reference['«'.len_utf8()..].contains('«') {
                return Some(reference);
            }
        }
    })
}

/// The facts of one line: the line itself when it names an error, then its paths and its
/// numbers, then its artifact references, then its URLs and qualified identifiers in order
/// of appearance.
/// A fact may repeat. Commands are found from messages, not lines: see [`commands`].
pub fn line_facts(line: &str) -> Vec<Fact<'_>> {
    let mut out = Vec::new();
    if is_error_line(line) {
        let head = fact_head(line);
        if !head.is_empty() {
            out.push(Fact {
                kind: FactKind::Error,
                text: head,
            });
        }
    }
    let mut others = Vec::new();
    for (before, word) in words(line) {
        // `</output>` splits into `<` and `/output`: a closing tag, not a path.
        if before == Some('<') && word.starts_with('/') {
            continue;
        }
        if let Some(url) = url(word) {
            others.push(Fact {
                kind: FactKind::Url,
                text: url,
            });
            continue;
        }
        let word = trim_word(word);
        let kind = if is_path(word) {
            FactKind::Path
        } else if is_identifier(word) {
            others.push(Fact {
                kind: FactKind::Identifier,
                text: word,
            });
            continue;
        } else {
            continue;
        };
        out.push(Fact { kind, text: word });
    }
    numbers(line, &mut out);
    out.extend(artifact_spans(line).map(|text| Fact {
        kind: FactKind::Artifact,
        text,
    }));
    out.extend(others);
    out
}

/// Runs of three or more ASCII digits that stand alone (not inside an identifier or a
/// hex string).
fn numbers<'a>(line: &'a str, out: &mut Vec<Fact<'a>>) {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let glued = |b: u8| b.is_ascii_alphabetic() || b == b'_';
        let before = start > 0 && glued(bytes[start - 1]);
        let after = i < bytes.len() && glued(bytes[i]);
        if i - start >= 3 && !before && !after {
            out.push(Fact {
                kind: FactKind::Number,
                text: &line[start..i],
            });
        }
    }
}

/// Every fact of `text`, line by line, in order of appearance (repeats included).
pub fn facts(text: &str) -> Vec<Fact<'_>> {
    text.lines().flat_map(line_facts).collect()
}

/// The command of a tool call: the `command` (or `cmd`, `script`, `code`) string field of
/// its JSON arguments, unescaped; else the arguments themselves when they are not JSON.
pub fn command_of(arguments: &str) -> Option<String> {
    let arguments = arguments.trim();
    if arguments.is_empty() || arguments == "{}" {
        return None;
    }
    if !arguments.starts_with('{') {
        return Some(arguments.to_owned());
    }
    ["command", "cmd", "script", "code", "path", "query"]
        .iter()
        .find_map(|key| json_string_field(arguments, key))
}

/// A command an agent ran and the exit status its output showed, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandRun {
    /// The command's first line, at most [`MAX_FACT_CHARS`] characters: the
    /// [`FactKind::Command`] fact.
    pub command: String,
    /// The exit status the output showed (see [`exit_status`]).
    pub status: Option<i64>,
}

/// How a text-action agent wrote a command ([`text_action`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActionForm<'a> {
    /// A `<function=NAME>` call with `<parameter=…>` values (SWE-agent's and OpenHands'
    /// text function calls).
    Function,
    /// An `<execute_NAME>…</execute_NAME>` tag (OpenHands CodeAct's `<execute_bash>`,
    /// `<execute_ipython>`).
    Execute,
    /// A fenced block (```` ``` ````), with the first line of its body: its language word,
    /// empty when the command starts on the line after the fence.
    Fence(&'a str),
    /// A `<command>…</command>` tag.
    Command,
}

/// The command a text-action agent wrote at the end of its message, and how: of the
/// forms [`ActionForm`] names, the one that closes last in `text`. A fenced block or a tag
/// gives its body whole (a fence without its language word); a `<function=NAME>` call its
/// one value when it has one (`bash`'s command), else the name and its one-line values
/// (`str_replace_editor view /testbed/setup.py`).
pub fn text_action(text: &str) -> Option<(ActionForm<'_>, Cow<'_, str>)> {
    let function = || {
        let end = text.rfind("</function>")?;
        Some((end, ActionForm::Function, function_call(text)?))
    };
    let executed = || {
        let close = text.rfind("</execute_")?;
        let name = text[close + "</execute_".len()..].split_once('>')?.0;
        let open_tag = format!("<execute_{name}>");
        let open = text[..close].rfind(&open_tag)?;
        let body = text[open + open_tag.len()..close].trim();
        Some((close, ActionForm::Execute, Cow::Borrowed(body)))
    };
    let fenced = || {
        let close = text.rfind("```")?;
        let body = last_fence(text)?;
        let (first, rest) = body.split_once('\n')?;
        // The language word, if any, ends at the first newline.
        let command = if first.trim().chars().all(|c| c.is_ascii_alphanumeric()) {
            rest
        } else {
            body
        };
        Some((
            close,
            ActionForm::Fence(first.trim()),
            Cow::Borrowed(command.trim()),
        ))
    };
    let tagged = || {
        let close = text.rfind("</command>")?;
        let open = text[..close].rfind("<command>")?;
        let body = text[open + "<command>".len()..close].trim();
        Some((close, ActionForm::Command, Cow::Borrowed(body)))
    };
    [function(), executed(), fenced(), tagged()]
        .into_iter()
        .flatten()
        .max_by_key(|(end, _, _)| *end)
        .map(|(_, form, command)| (form, command))
        .filter(|(_, c)| !c.is_empty() && c.len() <= 20_000)
}

/// The command a text-action agent wrote at the end of its message ([`text_action`]).
pub fn text_command(text: &str) -> Option<Cow<'_, str>> {
    text_action(text).map(|(_, command)| command)
}

/// The text between the last two fences (```` ``` ````) of `text`, language line included.
pub fn last_fence(text: &str) -> Option<&str> {
    let close = text.rfind("```")?;
    let open = text[..close].rfind("```")?;
    Some(&text[open + 3..close])
}

/// The last `<function=NAME>…</function>` of `text`, as [`text_command`] gives it.
fn function_call(text: &str) -> Option<Cow<'_, str>> {
    let (_, rest) = text.rsplit_once("<function=")?;
    let (name, body) = rest.split_once('>')?;
    let body = body.split_once("</function>")?.0;
    let values: Vec<&str> = body
        .split("<parameter=")
        .skip(1)
        .filter_map(|p| Some(p.split_once('>')?.1.split_once("</parameter>")?.0.trim()))
        .collect();
    match values.as_slice() {
        [one] => Some(Cow::Borrowed(one)),
        _ => {
            let mut line = name.trim().to_owned();
            for value in values.iter().filter(|v| !v.is_empty() && !v.contains('\n')) {
                line.push(' ');
                line.push_str(value);
            }
            Some(Cow::Owned(line))
        }
    }
}

/// The commands agents ran in `messages`, in order: tool calls (their `command` argument,
/// see [`command_of`]) with the status their result shows, and the command block a
/// text-action agent ends its message with, with the status the next message shows.
pub fn commands<'a>(messages: impl IntoIterator<Item = &'a Message>) -> Vec<CommandRun> {
    let mut out: Vec<CommandRun> = Vec::new();
    let mut calls: Vec<(&str, usize)> = Vec::new();
    let mut awaiting_text: Option<usize> = None;
    let head = |command: &str| fact_head(command.trim().lines().next().unwrap_or("")).to_owned();
    for message in messages {
        if message.role == Role::System {
            continue;
        }
        for part in &message.parts {
            match part {
                Part::ToolCall(call) if message.role == Role::Assistant => {
                    if let Some(command) = command_of(&call.arguments) {
                        calls.push((&call.id, out.len()));
                        out.push(CommandRun {
                            command: head(&command),
                            status: None,
                        });
                    }
                }
                Part::ToolResult(result) => {
                    // The newest call with the id: ids may be reused once answered.
                    let at = calls.iter().rfind(|(id, _)| *id == result.call_id);
                    if let Some(&(_, at)) = at {
                        let text = crate::message::text_of(&result.content);
                        out[at].status = exit_status(&text);
                    }
                }
                Part::Text { text } if message.role == Role::Assistant => {
                    if let Some(command) = text_command(text) {
                        awaiting_text = Some(out.len());
                        out.push(CommandRun {
                            command: head(&command),
                            status: None,
                        });
                    }
                }
                Part::Text { text } => {
                    if let Some(at) = awaiting_text.take() {
                        out[at].status = exit_status(text);
                    }
                }
                _ => {}
            }
        }
    }
    out.retain(|c| !c.command.is_empty());
    out
}

/// The string value of the first `"key": "…"` in a JSON object's text, unescaped.
pub fn json_string_field(json: &str, key: &str) -> Option<String> {
    let quoted = format!("\"{key}\"");
    let at = json.find(&quoted)? + quoted.len();
    let rest = json[at..].trim_start().strip_prefix(':')?.trim_start();
    let mut chars = rest.strip_prefix('"')?.chars();
    let mut out = String::new();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(out),
            '\\' => match chars.next()? {
                'n' => out.push('\n'),
                't' => out.push('\t'),
                'r' => {}
                'u' => {
                    let hex: String = chars.by_ref().take(4).collect();
                    out.push(
                        u32::from_str_radix(&hex, 16)
                            .ok()
                            .and_then(char::from_u32)
                            .unwrap_or('\u{fffd}'),
                    );
                }
                other => out.push(other),
            },
            c => out.push(c),
        }
    }
    None
}

/// The exit status a tool's output shows (`<returncode>1</returncode>`, `exit code 2`,
/// `Exit status: 0`), if any.
pub fn exit_status(output: &str) -> Option<i64> {
    if let Some((_, rest)) = output.split_once("<returncode>") {
        return rest.split_once("</returncode>")?.0.trim().parse().ok();
    }
    for marker in [
        "exit code",
        "exit status",
        "exited with code",
        "return code",
    ] {
        let Some(at) = find_ignore_case(output, marker) else {
            continue;
        };
        let rest = output[at + marker.len()..].trim_start_matches([':', ' ', '=']);
        let digits: String = rest
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '-')
            .collect();
        if let Ok(status) = digits.parse() {
            return Some(status);
        }
    }
    None
}

fn find_ignore_case(haystack: &str, needle: &str) -> Option<usize> {
    let (h, n) = (haystack.as_bytes(), needle.as_bytes());
    if h.len() < n.len() {
        return None;
    }
    h.windows(n.len()).position(|w| w.eq_ignore_ascii_case(n))
}

/// The first line of `command`, at most `max_chars` characters (an ellipsis marks a cut).
pub fn command_head(command: &str, max_chars: usize) -> String {
    let first = command.trim().lines().next().unwrap_or("").trim();
    let more = command.trim().lines().nth(1).is_some();
    match first.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{}…", &first[..cut]),
        None if more => format!("{first} …"),
        None => first.to_owned(),
    }
}

/// `line` without its markup tags (`<output>`, `</returncode>`): what is left is the text.
pub fn strip_markup(line: &str) -> Cow<'_, str> {
    if !line.contains('<') {
        return Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let tag_len = after
            .find('>')
            .filter(|&end| is_tag_name(after[..end].trim_start_matches('/').trim_end_matches('/')));
        match tag_len {
            Some(end) => rest = &after[end + 1..],
            None => {
                out.push('<');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out.trim().to_owned())
}

/// Is `name` (between `<` and `>`, slashes cut) a markup tag's name?
pub fn is_tag_name(name: &str) -> bool {
    (1..=32).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

#[cfg(test)]
mod tests;
