//! `extractiveSummarize(request)`: the engine's own offline summarizer as a `summarize`
//! function, the one `extractiveFallback` and the command line use. The lite package leaves
//! the summarizer out (the `extractive` feature) and refuses the call, as it refuses
//! `extractiveFallback`.

use wasm_bindgen::prelude::*;

use crate::error::Failure;
#[cfg(feature = "extractive")]
use crate::fields::Fields;

/// The fields of a `SummaryRequest`: any of them may be passed back as it came.
#[cfg(feature = "extractive")]
const REQUEST_FIELDS: &[&str] = &[
    "id",
    "level",
    "prompt",
    "maxOutputTokens",
    "covers",
    "age",
    "model",
    "provider",
    "attempt",
    "deadlineMs",
    "inputTokens",
    "continuation",
];

/// Answers a summary request with the built-in extractive summarizer: the transcript's
/// lines that carry facts (paths, numbers, errors, decisions, next steps) within
/// `maxOutputTokens`, under the prompt's headings. Deterministic, offline. An empty string
/// when the transcript holds nothing (the engine counts that as a failed summary).
#[wasm_bindgen(js_name = extractiveSummarize)]
pub fn extractive_summarize(
    #[wasm_bindgen(unchecked_param_type = "SummaryRequest")] request: JsValue,
) -> Result<String, JsValue> {
    Ok(summarize(&request)?)
}

#[cfg(feature = "extractive")]
fn summarize(request: &JsValue) -> Result<String, Failure> {
    use compactor::extractive::Extractive;

    let fields = Fields::new(request, "request", REQUEST_FIELDS)?;
    let given = fields.value("maxOutputTokens")?;
    let Some(max_tokens) = fields.integer_of("maxOutputTokens", given, u64::MAX)? else {
        return Err(Failure::invalid(
            fields.path("maxOutputTokens"),
            "expected a number of tokens, found nothing",
        ));
    };
    let prompt = prompt(&fields)?;
    Ok(Extractive.summarize_prompt(&prompt, max_tokens))
}

#[cfg(not(feature = "extractive"))]
fn summarize(_request: &JsValue) -> Result<String, Failure> {
    Err(Failure::invalid(
        "extractiveSummarize",
        "the lite package has no built-in summarizer: use @compactor-rs/compactor, \
         or a summarizer of your own",
    ))
}

/// `request.prompt`: an array of `{ role, content }` with string contents.
#[cfg(feature = "extractive")]
fn prompt(fields: &Fields) -> Result<Vec<compactor::prompt::PromptMessage>, Failure> {
    use compactor::message::Role;
    use compactor::prompt::PromptMessage;
    use serde_json::Value;

    let path = fields.path("prompt");
    let value = fields.value("prompt")?.unwrap_or(JsValue::UNDEFINED);
    let Some(Value::Array(items)) = crate::convert::read_json(&value, &path)? else {
        return Err(Failure::invalid(
            &path,
            "expected an array of prompt messages",
        ));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let at = format!("{path}[{i}]");
            let role = match item.get("role").and_then(Value::as_str) {
                Some("system") => Role::System,
                Some("user") => Role::User,
                Some("assistant") => Role::Assistant,
                Some("tool") => Role::Tool,
                _ => {
                    return Err(Failure::invalid(
                        format!("{at}.role"),
                        "expected \"system\", \"user\", \"assistant\" or \"tool\"",
                    ));
                }
            };
            let Some(content) = item.get("content").and_then(Value::as_str) else {
                return Err(Failure::invalid(
                    format!("{at}.content"),
                    "expected a string",
                ));
            };
            Ok(PromptMessage {
                role,
                content: content.to_owned(),
            })
        })
        .collect()
}
