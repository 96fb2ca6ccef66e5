use super::*;
use crate::budget::BudgetError;
use crate::engine::{CompactError, ConfigError};
use crate::format::{self, Format, FormatError, ParseOptions};
use crate::live::Splice;
use crate::message::Message;
use crate::wire::names::Spelling;

/// A host that spells config fields in upper case and takes pins as `args.pin`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shouting {}

impl Host for Shouting {
    const PIN: &'static str = "args.pin";
    const SPELLING: Spelling = Spelling::Snake;

    fn config_field(field: &str) -> String {
        field.to_uppercase()
    }
}

type Failed = Failure<Shouting>;

#[test]
fn a_config_error_points_at_the_field_in_the_hosts_spelling() {
    let failure = Failed::from(ConfigError::Invalid {
        field: "max_summary_tokens",
        expected: "at least 1",
        found: "0".into(),
    });
    assert_eq!(failure.code, Code::InvalidInput);
    assert_eq!(failure.path.as_deref(), Some("config.MAX_SUMMARY_TOKENS"));
    assert_eq!(
        failure.message,
        "config.MAX_SUMMARY_TOKENS: expected at least 1, found 0"
    );
    let budget = Failed::from(BudgetError::BadMaxMessages(0));
    assert_eq!(budget.path.as_deref(), Some("config.MAX_MESSAGES"));
}

#[test]
fn the_adapters_dollar_is_the_messages_argument() {
    let whole = Failed::from(FormatError::new("$", "not JSON"));
    assert_eq!(whole.path.as_deref(), Some("messages"));
    assert_eq!(whole.message, "messages: not JSON");
    let inner = Failed::from(FormatError::new("messages[2].role", "unknown role"));
    assert_eq!(inner.path.as_deref(), Some("messages[2].role"));
}

#[test]
fn engine_errors_keep_their_codes_and_details() {
    let cancelled = Failed::from(CompactError::Cancelled);
    assert_eq!(cancelled.code.as_str(), "ABORTED");
    assert_eq!(cancelled.details_json(), "{}");
    let conflict = Failed::from(CompactError::Conflict {
        expected: "3".into(),
        found: "4".into(),
    });
    assert_eq!(conflict.code, Code::Conflict);
    assert_eq!(conflict.details_json(), r#"{"expected":"3","found":"4"}"#);
    assert_eq!(Code::ALL.len(), 8);
}

#[test]
fn a_rebased_failure_moves_its_path_and_message() {
    let failure = Failed::invalid("messages[1]", "bad").rebased("store.load().messages");
    assert_eq!(failure.path.as_deref(), Some("store.load().messages[1]"));
    assert_eq!(failure.message, "store.load().messages[1]: bad");
}

#[test]
fn changes_count_in_the_callers_array_and_carry_the_formats_list() {
    // A Responses body: its instructions are the lead message, outside the `input` array.
    let text = r#"{"instructions":"be brief","input":[{"role":"user","content":"a"},{"role":"user","content":"b"}]}"#;
    let conversation =
        format::parse_str(text, Format::OpenAiResponses, ParseOptions::default()).expect("body");
    let messages = conversation.messages.clone();
    assert_eq!(messages.len(), 3);
    let splice = Splice {
        start: 1,
        delete_count: 1,
        insert: vec![Message::user("s", "summary")],
    };
    let changes = Changes::of(&conversation, &messages, &splice);
    assert_eq!(changes.start, 0);
    assert_eq!(changes.delete_count, 1);
    let inserted = changes.insert.as_array().expect("the input items");
    assert_eq!(inserted.len(), 1);
    let json = serde_json::to_value(&changes).expect("plain data");
    assert!(json.get("deleteCount").is_some());
}
