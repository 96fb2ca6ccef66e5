//! Tests shared by the Node and the browser suites: they run the wrapper inside a real JS
//! engine, where JS values, thrown errors and panics behave as users see them.

use compactor_wasm::{Compactor, count_tokens};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::wasm_bindgen_test;

/// Evaluates a JS expression (garbage that JSON cannot express: undefined, BigInt, cycles).
pub fn js(expression: &str) -> JsValue {
    js_sys::Function::new_no_args(&format!("return ({expression});"))
        .call0(&JsValue::UNDEFINED)
        .expect("the test's own JS is valid")
}

fn get(value: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(value, &key.into()).expect("an object")
}

fn conversation() -> JsValue {
    js(r#"[
        {"role": "system", "content": "You are a coding agent."},
        {"role": "user", "content": "Fix the failing test."},
        {"role": "assistant", "content": null, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "bash", "arguments": "{\"cmd\":\"cargo test\"}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "test result: FAILED. 1 failed"},
        {"role": "assistant", "content": "One test fails; fixing it."}
    ]"#)
}

fn compactor() -> Compactor {
    Compactor::new(js(r#"{"model": "gpt-4o"}"#)).expect("a catalog model")
}

/// The `code` and `path` of a thrown CompactorError.
fn code_and_path(error: &JsValue) -> (String, Option<String>) {
    assert!(
        error.is_instance_of::<js_sys::Error>(),
        "{error:?} is no Error"
    );
    (
        get(error, "code").as_string().expect("a code"),
        get(error, "path").as_string(),
    )
}

#[wasm_bindgen_test]
fn assess_counts_and_resolves_the_budget() {
    let assessment = compactor().assess(conversation(), None).expect("valid");
    assert_eq!(get(&assessment, "messageCount").as_f64(), Some(5.0));
    assert!(get(&assessment, "totalTokens").as_f64().expect("a number") > 20.0);
    let budget = get(&assessment, "budget");
    assert_eq!(get(&budget, "absoluteLimit").as_f64(), Some(111_616.0));
    assert_eq!(
        get(&budget, "encoding").as_string().as_deref(),
        Some("o200k_base")
    );
    let signals = get(&assessment, "signals");
    assert_eq!(get(&signals, "overTrigger").as_bool(), Some(false));
    assert!(get(&get(&assessment, "target"), "messages").is_null());
}

#[wasm_bindgen_test]
fn plan_keeps_tool_calls_with_their_results() {
    let plan = compactor()
        .plan(conversation(), Some(js(r#"{"format": "openai"}"#)))
        .expect("valid");
    let units: js_sys::Array = get(&get(&plan, "segmentation"), "units").into();
    let exchange = units
        .iter()
        .find(|u| get(u, "kind").as_string().as_deref() == Some("tool_exchange"))
        .expect("the call and its result form one unit");
    let range = get(&exchange, "messages");
    assert_eq!(get(&range, "start").as_f64(), Some(2.0));
    assert_eq!(get(&range, "end").as_f64(), Some(4.0));
    assert_eq!(get(&get(&plan, "tail"), "start").as_f64(), Some(1.0));
}

#[wasm_bindgen_test]
fn count_tokens_is_exact_with_the_full_build() {
    let count = count_tokens("hello world".into(), None).expect("text");
    if cfg!(feature = "o200k") {
        assert_eq!(count, 2.0);
    } else {
        assert!(count >= 2.0);
    }
    assert!(count_tokens("hello world".into(), Some("estimate".into())).expect("known") >= 2.0);
}

#[wasm_bindgen_test]
fn clones_share_the_token_memo() {
    let original = compactor();
    let clone = original.clone_handle();
    clone.assess(conversation(), None).expect("valid");
    assert_eq!(original.memo_size(), 5);
    assert_eq!(clone.memo_size(), 5);
}

#[wasm_bindgen_test]
fn bad_messages_name_the_path() {
    let error = compactor()
        .assess(
            js(r#"[{"role":"user","content":"x"},{"role":"bot","content":"x"}]"#),
            None,
        )
        .expect_err("unknown role");
    assert_eq!(
        code_and_path(&error),
        ("INVALID_INPUT".into(), Some("messages[1].role".into()))
    );
    let message = get(&error, "message").as_string().expect("a message");
    assert_eq!(message, r#"messages[1].role: unknown role "bot""#);
}

#[wasm_bindgen_test]
fn bad_config_names_the_field() {
    for (config, path) in [
        (r#"{"maxContextTokens": "big"}"#, "config.maxContextTokens"),
        (r#"{"model": "my-llama"}"#, "config.model"),
        (
            r#"{"model": "gpt-4o", "maxMessages": 1}"#,
            "config.maxMessages",
        ),
        (
            r#"{"model": "gpt-4o", "encoding": "gpt2"}"#,
            "config.encoding",
        ),
        (
            r#"{"model": "gpt-4o", "maxContextTokn": 5}"#,
            "config.maxContextTokn",
        ),
        ("42", "config"),
    ] {
        let error = Compactor::new(js(config)).err().expect(config);
        assert_eq!(code_and_path(&error).1.as_deref(), Some(path), "{config}");
    }
}

/// Every kind of garbage in every argument: each is a coded error, none a panic, and the
/// module still answers a normal call afterwards.
#[wasm_bindgen_test]
fn garbage_never_panics() {
    let garbage = [
        "undefined",
        "null",
        "0",
        "-1.5",
        "NaN",
        "Infinity",
        "true",
        "'text'",
        "10n",
        "Symbol('s')",
        "() => 1",
        "[]",
        "{}",
        "[null]",
        "[1, 'a', true]",
        "[[[[[]]]]]",
        "(() => { const a = []; a.push(a); return a; })()",
        "(() => { let a = []; for (let i = 0; i < 5000; i++) a = [a]; return a; })()",
        "[{role: 'user', content: 'x'.repeat(2000000)}]",
        "[{role: 7}]",
        "[{role: 'user', content: {}}]",
        "[{role: 'user', content: [{type: 'image_url'}]}]",
        "[{role: 'user', content: [{type: 'text', text: 5}]}]",
        "[{role: 'assistant', tool_calls: 'no'}]",
        "[{role: 'assistant', tool_calls: [{id: 1, function: null}]}]",
        "[{role: 'tool', content: 'orphan', tool_call_id: 'nope'}]",
        "[{role: 'tool', content: 'x', tool_call_id: {}}]",
        "{messages: 'no'}",
        "{messages: [{role: 'user', content: null, name: 5}]}",
        "new Date(0)",
        "new Map([[1, 2]])",
        "{toJSON() { throw new Error('boom'); }}",
    ];
    let c = compactor();
    for text in garbage {
        let value = js(text);
        for result in [
            c.assess(value.clone(), None),
            c.plan(value.clone(), None),
            c.assess(conversation(), Some(value.clone())),
            c.plan(conversation(), Some(value.clone())),
        ] {
            if let Err(error) = result {
                assert_eq!(code_and_path(&error).0, "INVALID_INPUT", "{text}");
            }
        }
        if let Err(error) = Compactor::new(value.clone()) {
            assert_eq!(code_and_path(&error).0, "INVALID_INPUT", "{text}");
        }
        let counted = count_tokens(value.clone(), Some(value.clone()));
        if let Err(error) = counted {
            assert_eq!(code_and_path(&error).0, "INVALID_INPUT", "{text}");
        }
        let _ = c.calibrate(conversation(), value.clone(), None);
    }
    let assessment = c.assess(conversation(), None).expect("still works");
    assert_eq!(get(&assessment, "messageCount").as_f64(), Some(5.0));
}
