//! A gemini-cli chat as JSON Lines (`~/.gemini/tmp/<project>/chats/session-*.jsonl`,
//! gemini-cli 0.39 on), read as the Gemini `contents` requests it sent.
//!
//! gemini-cli appends to the file as the session goes: a first line of the session's
//! metadata (`sessionId`, `projectHash`, times, `kind`), then lines of four kinds, which
//! it replays in order to rebuild the chat:
//!
//! - a message (it has an `id`): the records of the JSON chat (see [`super::gemini_chat`]).
//!   A message written again under the same `id` (its tokens, its tool calls and their
//!   results as they come) takes the place of the earlier one;
//! - `{"$set": {…}}`: metadata changed (`lastUpdated`, `summary`, `directories`). A `$set`
//!   of `messages` (0.44 on) replaces every message: where the conversation it holds
//!   (its `user` and `gemini` messages) is the one before, or its start, it rewrites their
//!   content (masked tool output, the model turns as held) or drops what followed (a
//!   request rolled back); else gemini-cli put something in place of its history (a
//!   compression's summary), and a new epoch starts, led by those messages. The messages
//!   gemini-cli wrote just before for that (the summary, placed at the end of the old
//!   history) are left out of the old epoch;
//! - `{"$rewindTo": id}`: `/rewind` dropped that message and all after it (all, where the
//!   file does not hold it).
//!
//! Any other line is an error at its line.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::gemini_chat::Turns;
use super::{Lines, Recording, line_path};
use crate::format::{FormatError, at, index, kind_of};

/// Is `first`, a file's first object, a gemini-cli chat's metadata line?
pub(crate) fn is_start(first: &Map<String, Value>) -> bool {
    first.get("sessionId").is_some_and(Value::is_string)
        && first.get("projectHash").is_some_and(Value::is_string)
        && !first.contains_key("uuid")
}

/// A message as the file holds it last, with where it was read (for errors).
struct Record {
    path: String,
    message: Value,
}

impl Record {
    fn id(&self) -> &str {
        self.message
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    /// A turn of the conversation, not the interface's own (`info`, `error`, `warning`).
    fn is_turn(&self) -> bool {
        matches!(
            self.message.get("type").and_then(Value::as_str),
            Some("user" | "gemini")
        )
    }
}

/// The messages of one epoch, as replayed so far.
#[derive(Default)]
struct Stretch {
    lead: Vec<Record>,
    items: Vec<Record>,
}

impl Stretch {
    /// A message: in place of the one with its id, or after the rest.
    fn put(&mut self, record: Record) {
        let mut records = self.lead.iter_mut().chain(self.items.iter_mut());
        match records.find(|r| r.id() == record.id()) {
            Some(old) => *old = record,
            None => self.items.push(record),
        }
    }

    /// `$rewindTo`: drops the message `id` and all after it; all where none has it.
    fn rewind(&mut self, id: &str) {
        if let Some(at) = self.items.iter().position(|r| r.id() == id) {
            self.items.truncate(at);
        } else {
            let at = self.lead.iter().position(|r| r.id() == id).unwrap_or(0);
            self.lead.truncate(at);
            self.items.clear();
        }
    }

    /// A `$set` of `messages`: rewrites this stretch where `list` holds its conversation
    /// or its start (`None`), else the next stretch, led by `list`.
    fn checkpoint(&mut self, list: Vec<Record>) -> Option<Stretch> {
        let held: Vec<&str> = self
            .lead
            .iter()
            .chain(&self.items)
            .filter(|r| r.is_turn())
            .map(Record::id)
            .collect();
        let given: Vec<&str> = list
            .iter()
            .filter(|r| r.is_turn())
            .map(Record::id)
            .collect();
        let continues = given.len() <= held.len() && given.iter().zip(&held).all(|(a, b)| a == b);
        let given = given.len();
        if continues {
            let mut kept = 0;
            let mut list = list.into_iter().filter(Record::is_turn);
            let mut keep = |records: &mut Vec<Record>| {
                records.retain_mut(|r| {
                    if kept == given {
                        return false;
                    }
                    if r.is_turn()
                        && let Some(new) = list.next()
                    {
                        *r = new;
                        kept += 1;
                    }
                    true
                });
            };
            keep(&mut self.lead);
            keep(&mut self.items);
            return None;
        }
        self.leave_out_introduced(&list);
        Some(Stretch {
            lead: list,
            items: Vec::new(),
        })
    }

    /// Leaves out of this stretch the messages gemini-cli wrote for `list` just before it
    /// (a summary and its answer, placed at the end of the old history): those `list`
    /// holds before a message this stretch held earlier, or the run at its end that
    /// `list` opens with.
    fn leave_out_introduced(&mut self, list: &[Record]) {
        let place: HashMap<&str, usize> =
            list.iter().enumerate().map(|(i, r)| (r.id(), i)).collect();
        let run = self
            .items
            .iter()
            .rposition(|r| !place.contains_key(r.id()))
            .map_or(0, |i| i + 1);
        let opens = self
            .items
            .get(run)
            .is_some_and(|r| place.get(r.id()) == Some(&0));
        let mut highest: Option<usize> = None;
        let mut k = 0;
        self.items.retain(|r| {
            let i = k;
            k += 1;
            let Some(&p) = place.get(r.id()) else {
                return true;
            };
            let introduced = (opens && i >= run) || highest.is_some_and(|h| p < h);
            highest = highest.max(Some(p));
            !introduced
        });
    }
}

/// The messages of a `$set` or of the metadata line, at `path`.
fn records(messages: &Value, path: &str) -> Result<Vec<Record>, FormatError> {
    let messages = messages.as_array().ok_or_else(|| {
        FormatError::new(
            path,
            format!("expected an array of messages, found {}", kind_of(messages)),
        )
    })?;
    messages
        .iter()
        .enumerate()
        .map(|(i, message)| {
            let path = index(path, i);
            if !message.get("id").is_some_and(Value::is_string) {
                return Err(FormatError::new(path, "expected a message with an `id`"));
            }
            Ok(Record {
                path,
                message: message.clone(),
            })
        })
        .collect()
}

/// Reads a JSON Lines chat.
pub(crate) fn read(lines: &Lines) -> Result<Recording, FormatError> {
    let mut done: Vec<Stretch> = Vec::new();
    let mut now = Stretch::default();
    for (number, object) in &lines.objects {
        let path = line_path(*number);
        if let Some(id) = object.get("$rewindTo") {
            let id = id.as_str().ok_or_else(|| {
                FormatError::new(
                    at(&path, "$rewindTo"),
                    format!("expected a message id, found {}", kind_of(id)),
                )
            })?;
            now.rewind(id);
        } else if let Some(set) = object.get("$set") {
            let set = set.as_object().ok_or_else(|| {
                FormatError::new(
                    at(&path, "$set"),
                    format!("expected an object, found {}", kind_of(set)),
                )
            })?;
            if let Some(messages) = set.get("messages") {
                let list = records(messages, &at(&at(&path, "$set"), "messages"))?;
                if let Some(next) = now.checkpoint(list) {
                    done.push(std::mem::replace(&mut now, next));
                }
            }
        } else if object.get("id").is_some_and(Value::is_string) {
            now.put(Record {
                path,
                message: Value::Object(object.clone()),
            });
        } else if is_start(object) {
            // The metadata; a whole chat on one line (a JSON chat appended to) has its messages.
            if let Some(messages) = object.get("messages") {
                for record in records(messages, &at(&path, "messages"))? {
                    now.put(record);
                }
            }
        } else {
            return Err(FormatError::new(
                path,
                "expected a message (with an `id`), a `$set`, a `$rewindTo` or the session's metadata",
            ));
        }
    }
    done.push(now);
    // An epoch's lead and items are read in one pass, so a response at the start of its
    // items answers a call its lead ends with.
    let mut turns = Turns::default();
    let mut epochs = Vec::with_capacity(done.len());
    for stretch in done {
        for record in &stretch.lead {
            turns.message(&record.message, &record.path)?;
        }
        let led = turns.epoch.items.len();
        turns.epoch.calls.clear(); // the lead's answers were no calls of this epoch
        for record in &stretch.items {
            turns.message(&record.message, &record.path)?;
        }
        let mut epoch = std::mem::take(&mut turns.epoch);
        let items = epoch.items.split_off(led);
        epoch.lead = std::mem::replace(&mut epoch.items, items);
        for call in &mut epoch.calls {
            *call -= led;
        }
        epochs.push(epoch);
    }
    let last = epochs.pop().unwrap_or_default();
    turns.epoch = last;
    Ok(turns.finish(epochs))
}

#[cfg(test)]
mod tests {
    use crate::format::recording::{Agent, read as read_file};
    use serde_json::{Value, json};

    const START: &str =
        r#"{"sessionId":"s","projectHash":"h","startTime":"t","lastUpdated":"t","kind":"main"}"#;

    fn chat(lines: &[Value]) -> String {
        let mut text = format!("{START}\n");
        for line in lines {
            text.push_str(&format!("{line}\n"));
        }
        text
    }

    fn user(id: &str, text: &str) -> Value {
        json!({"id": id, "timestamp": "t", "type": "user", "content": [{"text": text}]})
    }

    fn answer(id: &str, text: &str) -> Value {
        json!({"id": id, "timestamp": "t", "type": "gemini", "content": text, "model": "m"})
    }

    /// The texts of the run's contents, and the calls.
    fn texts(text: &str) -> (Vec<String>, usize, usize) {
        let recording = read_file(text).expect("reads").expect("a chat");
        assert_eq!(recording.agent, Agent::GeminiCli);
        let run = recording.run();
        let texts = run["contents"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|c| {
                c["parts"][0]["text"]
                    .as_str()
                    .unwrap_or_default()
                    .to_owned()
            })
            .collect();
        (texts, recording.calls(), recording.compactions())
    }

    #[test]
    fn a_line_of_no_known_kind_is_an_error_at_its_line() {
        let error = read_file(&chat(&[json!({"kind": "surprise"})])).expect_err("refused");
        assert_eq!(error.path, "line 2");
        assert!(error.message.contains("expected a message"), "{error}");
        let error = read_file(&chat(&[json!({"$rewindTo": 3})])).expect_err("refused");
        assert_eq!(error.path, "line 2.$rewindTo");
        let error = read_file(&chat(&[json!({"$set": {"messages": [{"type": "user"}]}})]))
            .expect_err("refused");
        assert_eq!(error.path, "line 2.$set.messages[0]");
    }

    #[test]
    fn a_message_written_again_takes_the_place_of_the_first() {
        let text = chat(&[
            user("u1", "first"),
            answer("g1", "draft"),
            json!({"$set": {"lastUpdated": "t2"}}),
            answer("g1", "final"),
        ]);
        assert_eq!(texts(&text), (vec!["first".into(), "final".into()], 1, 0));
    }

    #[test]
    fn a_rewind_drops_the_message_and_after_or_all_when_none_has_it() {
        let lines = [
            user("u1", "one"),
            answer("g1", "a"),
            user("u2", "two"),
            answer("g2", "b"),
        ];
        let mut kept = lines.to_vec();
        kept.push(json!({"$rewindTo": "u2"}));
        assert_eq!(texts(&chat(&kept)), (vec!["one".into(), "a".into()], 1, 0));
        let mut none = lines.to_vec();
        none.push(json!({"$rewindTo": "gone"}));
        none.push(user("u3", "again"));
        assert_eq!(texts(&chat(&none)), (vec!["again".into()], 0, 0));
    }

    #[test]
    fn a_set_of_the_conversation_so_far_rewrites_it_in_place() {
        // A request rolled back: the messages before it, the info notice left out.
        let text = chat(&[
            user("u1", "one"),
            answer("g1", "a"),
            json!({"id": "i1", "type": "info", "content": "notice"}),
            user("u2", "two"),
            json!({"$set": {"messages": [user("u1", "one, masked"), answer("g1", "a")]}}),
            user("u3", "three"),
        ]);
        assert_eq!(
            texts(&text),
            (vec!["one, masked".into(), "a".into(), "three".into()], 1, 0)
        );
    }

    #[test]
    fn a_set_that_replaces_the_history_starts_an_epoch_without_its_summary_in_the_old() {
        // A compression that kept no turn: the summary gemini-cli wrote at the end of the
        // old history just before is its lead, not the old epoch's end.
        let summary = user("s1", "summary");
        let ack = answer("s2", "ok");
        let text = chat(&[
            user("u1", "one"),
            answer("g1", "a"),
            summary.clone(),
            ack.clone(),
            json!({"$set": {"messages": [summary, ack]}}),
            user("u2", "two"),
            answer("g2", "b"),
        ]);
        let (run, calls, compactions) = texts(&text);
        assert_eq!(run, ["one", "a", "two", "b"]);
        assert_eq!((calls, compactions), (2, 1));
        let recording = read_file(&text).expect("reads").expect("a chat");
        let context = recording.context();
        assert_eq!(context["contents"][0]["parts"][0]["text"], "summary");
        assert_eq!(context["contents"].as_array().map(Vec::len), Some(4));
    }

    #[test]
    fn the_metadata_line_alone_is_an_empty_chat() {
        let recording = read_file(START).expect("reads").expect("a chat");
        assert_eq!((recording.agent, recording.calls()), (Agent::GeminiCli, 0));
    }
}
