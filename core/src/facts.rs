//! Facts: what a later turn needs from earlier text, found in one place.
//!
//! A fact is a file path, a number of three or more digits, a line naming an error or an
//! exception, or a command an agent ran (with its exit status when the output shows one).
//! The extractive summarizer ranks and keeps them, LIGHT's placeholder for a cleared tool
//! result keeps the most telling ones, and the test suite's fidelity report measures how
//! many of a conversation's facts survive compaction: all three read facts through this
//! module, so they agree on what a fact is.

/// What kind of fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FactKind {
    /// A line naming an error or an exception (its head, at most [`MAX_FACT_CHARS`]).
    Error,
    /// A file path (`src/lib.rs`, `./django/views.py`, `setup.cfg`).
    Path,
    /// A number of three or more digits (`1474`, `13230`).
    Number,
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
const WORD_BREAKS: &str = "\"'`()[]{}<>,;=|";

/// Does `line` name an error or an exception?
pub fn is_error_line(line: &str) -> bool {
    // ASCII case-insensitive search without allocating: this runs on every line of
    // million-token sessions.
    contains_ignore_case(line, "error") || contains_ignore_case(line, "exception")
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
        // "e.g" and "i.e" are not files: a bare name needs a stem of two characters.
        (stem.len() >= 2 || stem.contains('/'))
            && !stem.ends_with('.')
            && (1..=5).contains(&ext.len())
            && ext.chars().all(|c| c.is_ascii_alphanumeric())
            && ext.chars().any(|c| c.is_ascii_lowercase())
            && stem
                .rsplit('/')
                .next()
                .is_some_and(|s| s.chars().any(char::is_alphanumeric))
    });
    has_letter && (slash || file)
}

/// Cuts the punctuation a sentence puts around a path (`src/lib.rs:` → `src/lib.rs`).
fn trim_word(word: &str) -> &str {
    word.trim_start_matches(':')
        .trim_end_matches(['.', ':', '!', '?'].as_slice())
}

/// The facts of one line, in order of appearance: the line itself when it names an error,
/// then its paths and numbers. A fact may repeat.
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
    for word in line.split(|c: char| c.is_whitespace() || WORD_BREAKS.contains(c)) {
        let word = trim_word(word);
        if is_path(word) {
            out.push(Fact {
                kind: FactKind::Path,
                text: word,
            });
        }
    }
    numbers(line, &mut out);
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

/// The string value of the first `"key": "…"` in a JSON object's text, unescaped.
fn json_string_field(json: &str, key: &str) -> Option<String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(line: &str, kind: FactKind) -> Vec<&str> {
        line_facts(line)
            .into_iter()
            .filter(|f| f.kind == kind)
            .map(|f| f.text)
            .collect()
    }

    #[test]
    fn paths_are_found_without_sentence_punctuation() {
        let line =
            "Edited src/marshmallow/fields.py: see ./tests/test_a.py, setup.cfg and (docs/x.md).";
        assert_eq!(
            texts(line, FactKind::Path),
            [
                "src/marshmallow/fields.py",
                "./tests/test_a.py",
                "setup.cfg",
                "docs/x.md"
            ]
        );
        assert!(
            texts(
                "see https://example.com/a.html or 3.14 or e.g. this",
                FactKind::Path
            )
            .is_empty()
        );
        assert!(texts("and/or", FactKind::Path).is_empty());
    }

    #[test]
    fn numbers_stand_alone_with_three_digits_or_more() {
        let line = "line 1474: 345 != 344 in abc123 at 0x1f2e and 12 or _999";
        assert_eq!(texts(line, FactKind::Number), ["1474", "345", "344"]);
    }

    #[test]
    fn error_lines_count_by_their_head() {
        assert_eq!(
            texts("  TypeError: bad operand  ", FactKind::Error),
            ["TypeError: bad operand"]
        );
        let long = format!("Exception: {}", "x".repeat(500));
        assert_eq!(
            texts(&long, FactKind::Error)[0].chars().count(),
            MAX_FACT_CHARS
        );
        assert!(texts("all good", FactKind::Error).is_empty());
    }

    #[test]
    fn commands_and_exit_statuses_are_read() {
        assert_eq!(
            command_of(r#"{"command": "grep -n \"def add\" a.py\nls"}"#).as_deref(),
            Some("grep -n \"def add\" a.py\nls")
        );
        assert_eq!(command_of("{}"), None);
        assert_eq!(exit_status("<returncode>1</returncode>\n<output>"), Some(1));
        assert_eq!(exit_status("Process finished. Exit code: 2"), Some(2));
        assert_eq!(exit_status("fine"), None);
        assert_eq!(command_head("cat <<EOF\nx\nEOF", 80), "cat <<EOF …");
    }
}
