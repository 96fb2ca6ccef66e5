//! Exact pass-through: numbers in messages' extras (and in their content blocks) come
//! back as the input wrote them, through parse, a compaction that rewrites other
//! messages, and write, in every format; and every corpus file compacted for a small
//! window writes back its untouched messages byte for byte.

use std::collections::HashMap;

use compactor::budget::BudgetConfig;
use compactor::engine::{CompactionConfig, Compactor, Trigger};
use compactor::format::{Format, ParseOptions, parse_str, render};
use compactor::message::Message;
use compactor_tests::arb;
use compactor_tests::convert::{to_aisdk, to_anthropic};
use compactor_tests::harness::{Script, Scripted, SimClock, drive_bounded};
use compactor_tests::setup::compactor_for;
use proptest::prelude::*;
use serde_json::Value;
use serde_json::value::RawValue;

const LENIENT: ParseOptions = ParseOptions { lenient: true };

/// Numbers a `Value` does not hold as written, and random ones: digits, fractions,
/// exponents of either case and sign.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("1776068401.3278353".to_owned()),
        Just("18446744073709551615".to_owned()),
        Just("123456789012345678901234567890".to_owned()),
        Just("-0.0".to_owned()),
        Just("1e400".to_owned()),
        Just("-1E-400".to_owned()),
        Just("1E5".to_owned()),
        Just("1.10".to_owned()),
        Just("0.00021688800000000001".to_owned()),
        "-?(0|[1-9][0-9]{0,25})(\\.[0-9]{1,25})?([eE][-+]?[0-9]{1,4})?",
        any::<f64>().prop_map(|f| if f.is_finite() {
            format!("{f:?}")
        } else {
            "0".to_owned()
        }),
    ]
}

/// JSON text of `value` with a field `"x": [tag, numbers…]` added to every message and
/// every content block, each tagged with a unique string.
fn with_numbers(value: &Value, numbers: &[String]) -> String {
    let mut next = 0usize;
    let mut extra = |out: &mut String| {
        next += 1;
        let picked: Vec<&str> = (0..3)
            .map(|k| numbers[(next * 3 + k) % numbers.len()].as_str())
            .collect();
        out.push_str(&format!(",\"x\":[\"tag{next}\",{}]", picked.join(",")));
    };
    fn object(value: &Value, out: &mut String, tail: impl FnOnce(&mut String)) {
        let text = value.to_string();
        out.push_str(&text[..text.len() - 1]);
        tail(out);
        out.push('}');
    }
    let messages = match value {
        Value::Array(items) => items,
        Value::Object(body) => body["messages"].as_array().expect("messages"),
        _ => unreachable!("a conversation"),
    };
    let mut out = String::from("[");
    for (i, message) in messages.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let mut message = message.clone();
        let blocks = match message.get_mut("content") {
            Some(Value::Array(blocks)) => std::mem::take(blocks),
            _ => Vec::new(),
        };
        let mut text = String::new();
        object(&message, &mut text, &mut extra);
        if !blocks.is_empty() {
            let mut list = String::from("[");
            for (j, block) in blocks.iter().enumerate() {
                if j > 0 {
                    list.push(',');
                }
                object(block, &mut list, &mut extra);
            }
            list.push(']');
            text = text.replacen("\"content\":[]", &format!("\"content\":{list}"), 1);
        }
        out.push_str(&text);
    }
    out.push(']');
    match value {
        Value::Object(body) => {
            let mut body = body.clone();
            body.insert("messages".into(), Value::Array(Vec::new()));
            let mut text = String::new();
            object(&Value::Object(body), &mut text, |out| {
                out.push_str(&format!(",\"seed\":{}", numbers[0]));
            });
            text.replacen("\"messages\":[]", &format!("\"messages\":{out}"), 1)
        }
        _ => out,
    }
}

fn fields(text: &str) -> HashMap<String, &RawValue> {
    serde_json::from_str(text).unwrap_or_default()
}

fn items(text: &str) -> Vec<&RawValue> {
    serde_json::from_str(text).unwrap_or_default()
}

/// The tag of an `"x"` field: its first item.
fn tag_of(x: &RawValue) -> Option<String> {
    serde_json::from_str(items(x.get()).first()?.get()).ok()
}

/// The texts of a written conversation: every `"x"` field by its tag, and each message
/// with the tag of its own `"x"` (none for a summary).
struct Tagged {
    extras: HashMap<String, String>,
    messages: Vec<(Option<String>, String)>,
}

fn tagged(text: &str) -> Tagged {
    let body = fields(text);
    let list = body.get("messages").map_or(text, |m| m.get());
    let mut extras = HashMap::new();
    let mut keep = |x: Option<&&RawValue>| {
        let x = x?;
        let tag = tag_of(x)?;
        extras.insert(tag.clone(), x.get().to_owned());
        Some(tag)
    };
    let mut messages = Vec::new();
    for message in items(list) {
        let message_fields = fields(message.get());
        let tag = keep(message_fields.get("x"));
        if let Some(content) = message_fields.get("content") {
            for block in items(content.get()) {
                keep(fields(block.get()).get("x"));
            }
        }
        messages.push((tag, message.get().to_owned()));
    }
    Tagged { extras, messages }
}

fn in_format(format: Format, messages: &[Message]) -> Value {
    match format {
        Format::Anthropic => to_anthropic(messages),
        Format::AiSdk => to_aisdk(messages),
        _ => render(Format::OpenAi, messages),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn numbers_in_extras_come_back_as_written_through_a_compaction(
        messages in arb::conversation(24),
        numbers in proptest::collection::vec(number(), 1..12),
        format in prop_oneof![Just(Format::OpenAi), Just(Format::Anthropic), Just(Format::AiSdk)],
        share in 0.15f64..0.8,
    ) {
        let text = with_numbers(&in_format(format, &messages), &numbers);
        let conversation = parse_str(&text, format, LENIENT).expect("parses");
        let tokens = compactor_for(1_000_000, 1.0, |_| {}).assess(&conversation.messages).total_tokens;
        let compactor = compactor_for(tokens, share, |_| {});
        let mut run = compactor.begin("s", conversation.messages.clone(), Trigger::Proactive, 0).expect("begins");
        let Ok(outcome) = drive_bounded(&mut run, &Scripted::always(Script::Extract), &SimClock::default(), 10_000) else {
            return Ok(()); // a pinned prompt over the limit: nothing to write
        };
        let written = conversation.to_json(&outcome.messages).to_string();
        let (input, output) = (tagged(&text), tagged(&written));
        for (tag, x) in &output.extras {
            prop_assert_eq!(Some(x), input.extras.get(tag), "{}", tag);
        }
        if let Some(seed) = fields(&written).get("seed") {
            prop_assert_eq!(seed.get(), numbers[0].as_str());
        }
        let by_tag: HashMap<&String, &String> = input.messages.iter().filter_map(|(t, m)| Some((t.as_ref()?, m))).collect();
        // Anthropic's leading system prompt is the body's `system`, not an item.
        let kept: Vec<&Message> = outcome.messages.iter()
            .skip_while(|m| format == Format::Anthropic && m.role == compactor::message::Role::System)
            .collect();
        prop_assert_eq!(kept.len(), output.messages.len());
        for (message, (tag, raw)) in kept.into_iter().zip(&output.messages) {
            if message.is_compaction() {
                continue;
            }
            let tag = tag.as_ref().expect("a message that is not a summary keeps its extra");
            if conversation.original(message).is_some() {
                prop_assert_eq!(Some(&raw), by_tag.get(tag), "untouched message {}", tag);
            }
        }
    }
}

/// The real-data check: every corpus file compacted for a 12,000-token window writes back
/// each message the run did not rewrite as the very bytes of the input.
#[test]
fn the_corpus_compacted_for_a_small_window_keeps_untouched_messages_byte_for_byte() {
    let compactor = Compactor::new(CompactionConfig {
        budget: BudgetConfig {
            model: Some("gpt-4o".into()),
            max_context_tokens: Some(12_000),
            output_reserve: Some(1_000),
            ..BudgetConfig::default()
        },
        ..CompactionConfig::default()
    })
    .expect("valid numbers");
    let (mut files, mut untouched) = (0, 0);
    for (name, text) in compactor_tests::corpus() {
        let conversation = parse_str(&text, Format::OpenAi, LENIENT).expect(&name);
        let mut run = compactor
            .begin(&name, conversation.messages.clone(), Trigger::Proactive, 0)
            .expect("begins");
        let outcome = drive_bounded(
            &mut run,
            &Scripted::always(Script::Extract),
            &SimClock::default(),
            10_000,
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let written = conversation.to_json(&outcome.messages).to_string();
        let before: HashMap<_, _> = conversation
            .messages
            .iter()
            .zip(items(&text))
            .map(|(m, raw)| (m.id.clone(), raw.get()))
            .collect();
        let after = items(&written);
        assert_eq!(after.len(), outcome.messages.len(), "{name}");
        for (message, raw) in outcome.messages.iter().zip(after) {
            if conversation.original(message).is_some() {
                assert_eq!(
                    Some(&raw.get()),
                    before.get(&message.id),
                    "{name}: {}",
                    message.id
                );
                untouched += 1;
            }
        }
        files += 1;
    }
    println!("{files} files, {untouched} untouched messages, all byte for byte");
    assert!(
        files >= 20 && untouched >= 100,
        "{files} files, {untouched} messages"
    );
}
