//! The text of the detail overlay (`Enter`): a segment's messages, a level's numbers and
//! requests, a request's prompt and answer. Lines starting with `──` are headings.

use compactor::engine::RequestId;
use compactor::ladder::Level;
use compactor::message::Message;

use super::panes::{level_outcome, request_summary};
use crate::inspect::model::{App, DetailTarget, RequestState, SegmentRow};

/// The detail overlay's title and lines for `target`.
pub fn detail(app: &App, target: DetailTarget) -> (String, Vec<String>) {
    match target {
        DetailTarget::Segment(index) => segment(app, index),
        DetailTarget::Level(level) => level_detail(app, level),
        DetailTarget::Request(id) => request(app, id),
    }
}

fn segment(app: &App, index: usize) -> (String, Vec<String>) {
    let Some(row) = app.segments.rows.get(index) else {
        return ("segment".into(), vec!["(gone)".into()]);
    };
    let mut lines = Vec::new();
    for i in row.messages.clone() {
        if let Some(m) = app.messages.get(i) {
            message(app, i, m, &mut lines);
        }
    }
    (segment_title(row), lines)
}

fn segment_title(row: &SegmentRow) -> String {
    format!(
        "segment {} · messages {}..{} · {}",
        row.index,
        row.messages.start,
        row.messages.end,
        row.state.as_str()
    )
}

/// Message `i` of the shown conversation: a heading, its tool calls and its text.
fn message(app: &App, i: usize, m: &Message, lines: &mut Vec<String>) {
    let tokens = app.message_tokens.get(i).copied().unwrap_or(0);
    let mut head = format!(
        "── message {i} · {} · {} · {tokens} tokens",
        m.id,
        m.role.as_str()
    );
    if !m.compactable {
        head.push_str(" · pinned");
    }
    if let Some(meta) = &m.compaction {
        head.push_str(&format!(
            " · summary ({}) of {} messages",
            meta.level,
            meta.covers.len()
        ));
    }
    lines.push(head);
    for call in m.tool_calls() {
        lines.push(format!("→ {}({})", call.name, call.arguments));
    }
    lines.extend(m.text().lines().map(str::to_owned));
    if let Some(meta) = &m.compaction
        && let Some(row) = app
            .requests
            .rows
            .values()
            .find(|r| r.request.covers == meta.covers)
    {
        lines.push(format!(
            "── written by request #{} (Enter on it in Requests for the prompt)",
            row.request.id.0
        ));
    }
    lines.push(String::new());
}

fn level_detail(app: &App, level: Level) -> (String, Vec<String>) {
    let mut lines = Vec::new();
    if let Some(row) = app.ladder.rows.iter().find(|r| r.level == level) {
        lines.push(format!("outcome: {}", level_outcome(row)));
        lines.push(format!(
            "requests {} · answered {} · failed {} · cache hits {} · fallbacks {}",
            row.requests, row.answered, row.failed, row.cache_hits, row.fallbacks
        ));
    }
    lines.push(String::new());
    for r in app
        .requests
        .rows
        .values()
        .filter(|r| r.request.level == level)
    {
        lines.push(request_summary(r, app.requests.now_ms));
    }
    (format!("level {level}"), lines)
}

fn request(app: &App, id: RequestId) -> (String, Vec<String>) {
    let Some(row) = app.requests.rows.get(&id) else {
        return (format!("request #{}", id.0), vec!["(unknown)".into()]);
    };
    let r = &row.request;
    let mut lines = vec![
        format!(
            "level {} · attempt {} · covers {} messages · age {} · {} prompt tokens · max {} answer tokens",
            r.level,
            r.attempt,
            r.covers.len(),
            r.age,
            r.input_tokens,
            r.max_output_tokens
        ),
        request_summary(row, app.requests.now_ms),
        String::new(),
    ];
    for m in &r.prompt {
        lines.push(format!("── prompt: {} ──", m.role.as_str()));
        lines.extend(m.content.lines().map(str::to_owned));
        lines.push(String::new());
    }
    lines.push("── answer ──".into());
    match &row.state {
        RequestState::Answered { text, .. } => lines.extend(text.lines().map(str::to_owned)),
        RequestState::Failed { reason, .. } => lines.push(format!("failed: {reason}")),
        RequestState::Abandoned => lines.push("(abandoned: the run ended)".into()),
        RequestState::InFlight { .. } => lines.push("(waiting for the summarizer…)".into()),
    }
    (format!("request #{}", id.0), lines)
}
