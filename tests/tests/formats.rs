//! The format adapters on fixtures, the real corpus converted to every format, random
//! conversations and random damage.

use std::path::PathBuf;

use compactor::format::check::check;
use compactor::format::{Format, ParseOptions, parse, parse_auto, parse_str, render};
use compactor::message::Message;
use compactor_tests::convert::{to_aisdk, to_anthropic, to_gemini, to_responses};
use compactor_tests::{arb, corpus};
use proptest::prelude::*;
use serde_json::{Value, json};

const STRICT: ParseOptions = ParseOptions { lenient: false };
const LENIENT: ParseOptions = ParseOptions { lenient: true };

fn fixtures(folder: &str) -> Vec<(String, Value)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(folder);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("fixture");
            let name = path.display().to_string();
            let json = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, json)
        })
        .collect()
}

/// Parses, writes back unchanged and checks: the same JSON, and a valid conversation.
fn round_trips(name: &str, json: &Value, format: Format, options: ParseOptions) -> Vec<Message> {
    let conversation = parse(json, format, options).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(
        &conversation.to_json(&conversation.messages).to_value(),
        json,
        "{name}"
    );
    if let Err(violations) = check(format, &conversation.messages) {
        panic!("{name}: {violations:#?}");
    }
    conversation.messages
}

/// Detection names `format`, or the conversation is plain text, read the same by the
/// format detection picks.
fn detected_or_plain(name: &str, json: &Value, format: Format) {
    let auto = parse_auto(json, STRICT).unwrap_or_else(|e| panic!("{name}: {e}"));
    if auto.format != format {
        let named = parse(json, format, STRICT).expect(name);
        assert_eq!(
            auto.messages, named.messages,
            "{name}: detected as {}",
            auto.format
        );
    }
    assert_eq!(auto.to_json(&auto.messages).to_value(), *json, "{name}");
}

#[test]
fn fixtures_round_trip_and_pass_their_checker() {
    for (folder, format) in [
        ("openai", Format::OpenAi),
        ("anthropic", Format::Anthropic),
        ("aisdk", Format::AiSdk),
        ("responses", Format::OpenAiResponses),
        ("gemini", Format::Gemini),
    ] {
        let files = fixtures(folder);
        assert!(files.len() >= 2, "{folder}");
        for (name, json) in files {
            detected_or_plain(&name, &json, format);
            round_trips(&name, &json, format, STRICT);
        }
    }
}

#[test]
fn corpus_round_trips_as_openai_and_passes_the_checker() {
    for (name, text) in corpus() {
        let json: Value = serde_json::from_str(&text).expect("corpus JSON");
        assert_eq!(Format::detect(&json), Some(Format::OpenAi), "{name}");
        round_trips(&name, &json, Format::OpenAi, LENIENT);
    }
}

#[test]
fn exit_messages_fail_strict_parsing_by_path_and_survive_lenient() {
    let (name, text) = corpus()
        .into_iter()
        .find(|(name, _)| name == "mini-swe-agent--django-13230.json")
        .expect("the mini-swe-agent trajectory");
    let error = parse_str(&text, Format::OpenAi, STRICT).expect_err(&name);
    assert_eq!(
        error.to_string(),
        r#"messages[85].role: unknown role "exit""#
    );
    let conversation = parse_str(&text, Format::OpenAi, LENIENT).expect(&name);
    let exit = conversation.messages.last().expect("messages");
    assert!(!exit.compactable);
    let json: Value = serde_json::from_str(&text).expect("json");
    assert_eq!(
        conversation.to_json(&conversation.messages).to_value()[85],
        json[85]
    );
}

#[test]
fn the_corpus_converted_to_every_format_parses_round_trips_and_checks() {
    for (name, text) in corpus() {
        let messages = parse_str(&text, Format::OpenAi, LENIENT)
            .expect(&name)
            .messages;
        for (format, json) in [
            (Format::Anthropic, to_anthropic(&messages)),
            (Format::AiSdk, to_aisdk(&messages)),
        ] {
            let label = format!("{name} as {format}");
            detected_or_plain(&label, &json, format);
            let converted = round_trips(&label, &json, format, STRICT);
            let calls = |m: &[Message]| m.iter().flat_map(Message::tool_calls).count();
            assert_eq!(calls(&converted), calls(&messages), "{label}");
        }
    }
}

/// A random valid conversation in `format`.
fn in_format(format: Format, messages: &[Message]) -> Value {
    match format {
        Format::Anthropic => to_anthropic(messages),
        Format::AiSdk => to_aisdk(messages),
        Format::OpenAiResponses => to_responses(messages),
        Format::Gemini => to_gemini(messages, true),
        _ => render(Format::OpenAi, messages),
    }
}

fn messages_mut(json: &mut Value) -> &mut Vec<Value> {
    let list = if json.is_object() {
        &mut json["messages"]
    } else {
        json
    };
    list.as_array_mut().expect("a messages array")
}

/// Damage done to a valid conversation.
#[derive(Debug, Clone)]
enum Damage {
    UnknownRole(usize),
    UnknownBlockType(usize, usize),
    WrongType(usize, usize),
    MissingRole(usize),
    DeleteToolResult(usize),
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        any::<usize>().prop_map(Damage::UnknownRole),
        (any::<usize>(), any::<usize>()).prop_map(|(m, b)| Damage::UnknownBlockType(m, b)),
        (any::<usize>(), any::<usize>()).prop_map(|(m, f)| Damage::WrongType(m, f)),
        any::<usize>().prop_map(Damage::MissingRole),
        any::<usize>().prop_map(Damage::DeleteToolResult),
    ]
}

/// What the damage must lead to.
enum Expect {
    /// A strict error at this path; lenient parsing keeps it verbatim.
    ErrorAt(String, bool),
    /// Read in every mode, this message pinned, written back verbatim: a block of a type
    /// not known yet is not bad input.
    Kept(usize),
    /// A format error somewhere in this message, or a checker violation.
    Rejected(usize),
    /// A checker violation (the JSON still parses).
    Violation,
    /// Nothing to damage.
    Nothing,
}

fn apply(json: &mut Value, damage: &Damage) -> Expect {
    let list = messages_mut(json);
    if list.is_empty() {
        return Expect::Nothing;
    }
    let len = list.len();
    match *damage {
        Damage::UnknownRole(m) => {
            list[m % len]["role"] = json!("bot");
            Expect::ErrorAt(format!("messages[{}].role", m % len), true)
        }
        Damage::MissingRole(m) => {
            if let Some(object) = list[m % len].as_object_mut() {
                object.remove("role");
            }
            Expect::ErrorAt(format!("messages[{}].role", m % len), false)
        }
        Damage::UnknownBlockType(m, b) => {
            let with_blocks: Vec<usize> = (0..len)
                .filter(|&i| list[i]["content"].as_array().is_some_and(|a| !a.is_empty()))
                .collect();
            let Some(&i) = with_blocks.get(m % with_blocks.len().max(1)) else {
                return Expect::Nothing;
            };
            let blocks = list[i]["content"].as_array_mut().expect("blocks");
            let j = b % blocks.len();
            blocks[j]["type"] = json!("foo");
            Expect::Kept(i)
        }
        Damage::WrongType(m, f) => {
            let i = m % len;
            let fields: Vec<String> = list[i]
                .as_object()
                .map(|o| o.keys().cloned().collect())
                .unwrap_or_default();
            let field = &fields[f % fields.len()];
            list[i][field.as_str()] = json!(12345);
            Expect::Rejected(i)
        }
        Damage::DeleteToolResult(m) => {
            let with_results: Vec<(usize, usize)> = (0..len)
                .flat_map(|i| {
                    let is_tool = list[i]["role"] == "tool";
                    let blocks = list[i]["content"].as_array().cloned().unwrap_or_default();
                    let results: Vec<(usize, usize)> = blocks
                        .iter()
                        .enumerate()
                        .filter(|(_, b)| b["type"] == "tool_result" || b["type"] == "tool-result")
                        .map(|(j, _)| (i, j))
                        .collect();
                    if is_tool && results.is_empty() {
                        vec![(i, usize::MAX)]
                    } else {
                        results
                    }
                })
                .collect();
            let Some(&(i, j)) = with_results.get(m % with_results.len().max(1)) else {
                return Expect::Nothing;
            };
            let only =
                j == usize::MAX || list[i]["content"].as_array().is_some_and(|a| a.len() == 1);
            if only {
                list.remove(i);
            } else if let Some(blocks) = list[i]["content"].as_array_mut() {
                blocks.remove(j);
            }
            // Results deleted from the end leave a pending batch: the agent is mid-step,
            // which is allowed.
            if i + 1 < len {
                Expect::Violation
            } else {
                Expect::Nothing
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn random_valid_conversations_round_trip_and_pass_the_checker(
        messages in arb::conversation(16),
        format in prop::sample::select(Format::ALL.to_vec()),
    ) {
        let json = in_format(format, &messages);
        let conversation = parse(&json, format, STRICT).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&conversation.to_json(&conversation.messages).to_value(), &json);
        let again = parse(&conversation.to_json(&conversation.messages).to_value(), format, STRICT).expect("parses again");
        prop_assert_eq!(&again.messages, &conversation.messages);
        prop_assert_eq!(check(format, &conversation.messages), Ok(()));
    }

    #[test]
    fn damaged_conversations_are_refused_by_path_or_by_the_checker(
        messages in arb::conversation(12),
        // The damage is written for `messages` of role-and-content messages.
        format in prop::sample::select(vec![Format::OpenAi, Format::Anthropic, Format::AiSdk]),
        damage in damage(),
    ) {
        let mut json = in_format(format, &messages);
        let expect = apply(&mut json, &damage);
        let strict = parse(&json, format, STRICT);
        match expect {
            Expect::ErrorAt(path, lenient_keeps) => {
                let error = strict.expect_err("damage must be refused");
                prop_assert_eq!(&error.path, &path, "{}", error);
                if lenient_keeps {
                    let lenient = parse(&json, format, LENIENT).expect("lenient keeps it");
                    prop_assert_eq!(lenient.to_json(&lenient.messages).to_value(), json);
                }
            }
            Expect::Kept(index) => {
                let read = strict.map_err(|e| TestCaseError::fail(e.to_string()))?;
                let given = read.given_start(&read.messages);
                prop_assert!(!read.messages[given + index].compactable);
                prop_assert_eq!(read.to_json(&read.messages).to_value(), json);
                // The checker still holds the pairing it knows: a call or result turned
                // into an unknown block leaves its partner unpaired.
                let _ = check(format, &read.messages);
            }
            Expect::Rejected(index) => match strict {
                Err(error) => {
                    let named = error.message_index() == Some(index) || error.path == "$" || error.path == "messages";
                    prop_assert!(named, "{} for messages[{}]", error, index);
                }
                Ok(conversation) => {
                    // Some fields are free-form (`name`, `extra`): a number there is fine.
                    let _ = check(format, &conversation.messages);
                    prop_assert_eq!(conversation.to_json(&conversation.messages).to_value(), json);
                }
            },
            Expect::Violation => {
                let conversation = strict.expect("a deleted result still parses");
                prop_assert!(check(format, &conversation.messages).is_err());
            }
            Expect::Nothing => {}
        }
    }
}
