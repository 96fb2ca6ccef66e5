//! The windows over the panes: help, detail, before/after, the replay and the numbers
//! editor.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget, Wrap};

use compactor::engine::Status;
use compactor::message::Message;

use super::detail::detail;
use super::replay::ReplayView;
use crate::inspect::model::{App, DetailTarget, Numbers, Overlay, Phase};
use crate::words::thousands;

/// The app's overlay, if one is open, drawn over the whole screen.
pub struct OverlayView<'a>(pub &'a App);

impl Widget for OverlayView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let app = self.0;
        let Some(overlay) = &app.overlay else {
            return;
        };
        let rect = centered(area, 90, 85);
        Clear.render(rect, buf);
        match overlay {
            Overlay::Help => render_help(rect, buf),
            Overlay::Detail { target, scroll } => render_detail(app, *target, *scroll, rect, buf),
            Overlay::Compare { scroll } => render_compare(app, *scroll, rect, buf),
            Overlay::Replay => ReplayView(app).render(rect, buf),
            Overlay::Edit { fields, field } => {
                let rect = centered(area, 70, 60);
                Clear.render(rect, buf);
                render_edit(fields, *field, rect, buf);
            }
        }
    }
}

fn render_detail(app: &App, target: DetailTarget, scroll: u16, area: Rect, buf: &mut Buffer) {
    let (title, lines) = detail(app, target);
    let lines: Vec<Line> = lines
        .into_iter()
        .map(|l| {
            if l.starts_with("──") {
                Line::from(l).fg(Color::Cyan).bold()
            } else {
                Line::from(l)
            }
        })
        .collect();
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .scroll((scroll, 0))
        .block(Block::bordered().title(format!(" {title} · ↑↓ scroll · Esc closes ")))
        .render(area, buf);
}

/// Centers a `percent_x` × `percent_y` rectangle in `area`.
fn centered(area: Rect, percent_x: u16, percent_y: u16) -> Rect {
    let width = (u32::from(area.width) * u32::from(percent_x) / 100) as u16;
    let height = (u32::from(area.height) * u32::from(percent_y) / 100) as u16;
    Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    )
}

/// The keys, for the help overlay and the README.
pub const KEYS: [(&str, &str); 18] = [
    ("Space", "step: begin a run, or enter the next ladder level"),
    ("r", "run to the end"),
    ("c", "cancel the run (nothing is applied)"),
    ("u", "undo: the original conversation and numbers"),
    (
        "p",
        "pin / unpin the selected segment's messages (kept verbatim at every level)",
    ),
    (
        "n",
        "edit the numbers (window, reserve, trigger, target, recent turns) and the focus",
    ),
    (
        "e",
        "export the result next to the input as <name>.compacted.json",
    ),
    ("b", "before/after: the whole conversation side by side"),
    (
        "v",
        "replay: prompt tokens per call, compactions and running cost of the input",
    ),
    (
        "Enter",
        "detail of the selected segment, level, request or event",
    ),
    ("Tab / S-Tab", "next / previous pane"),
    ("↑↓ j k", "move; PgUp PgDn Home End too"),
    (
        "wheel, click",
        "scroll the pane under the pointer; focus a pane",
    ),
    ("?", "this help"),
    ("Esc", "close the overlay, or quit"),
    ("q", "quit"),
    ("", ""),
    (
        "states",
        "raw · tail · pinned · masked · summarized · in flight",
    ),
];

fn render_help(area: Rect, buf: &mut Buffer) {
    let lines: Vec<Line> = KEYS
        .iter()
        .map(|(key, what)| {
            Line::from(vec![
                Span::styled(
                    format!("{key:>12}  "),
                    Style::new().fg(Color::Yellow).bold(),
                ),
                Span::raw(*what),
            ])
        })
        .collect();
    Paragraph::new(lines)
        .block(Block::bordered().title(" keys · Esc closes "))
        .render(area, buf);
}

fn message_row(i: usize, m: &Message, tokens: u64) -> String {
    let mut mark = String::new();
    if m.is_compaction() {
        mark.push('Σ');
    } else if !m.compactable {
        mark.push('*');
    }
    let first = m
        .text()
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .to_owned();
    format!(
        "{i:>3} {}{mark:<1} {:>6}  {first}",
        m.role.letter(),
        thousands(tokens)
    )
}

fn render_compare(app: &App, scroll: u16, area: Rect, buf: &mut Buffer) {
    // The loss receipt beside the result: which facts the model no longer sees.
    let lost = match &app.phase {
        Phase::Done(outcome) if matches!(outcome.status, Status::Compacted { .. }) => {
            format!(" · {}", outcome.report.lost_facts.summary_line())
        }
        _ => String::new(),
    };
    let block = Block::bordered().title(format!(
        " before {} · after {} tokens{lost} · Esc closes ",
        thousands(app.original_tokens()),
        thousands(app.tokens)
    ));
    let inner = block.inner(area);
    block.render(area, buf);
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(inner);
    let before_tokens = app.compactor.accountant().count_messages(app.original());
    let before: Vec<Line> = app
        .original()
        .iter()
        .enumerate()
        .map(|(i, m)| {
            Line::from(message_row(
                i,
                m,
                before_tokens.get(i).copied().unwrap_or(0),
            ))
        })
        .collect();
    let after: Vec<Line> = app
        .messages
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let line = Line::from(message_row(
                i,
                m,
                app.message_tokens.get(i).copied().unwrap_or(0),
            ));
            if m.is_compaction() {
                line.fg(Color::Green)
            } else {
                line
            }
        })
        .collect();
    Paragraph::new(before)
        .block(Block::new().borders(Borders::RIGHT).title("before"))
        .scroll((scroll, 0))
        .render(left, buf);
    Paragraph::new(after)
        .block(Block::new().title(" after"))
        .scroll((scroll, 0))
        .render(right, buf);
}

fn render_edit(fields: &[String], field: usize, area: Rect, buf: &mut Buffer) {
    let mut lines: Vec<Line> = fields
        .iter()
        .enumerate()
        .map(|(i, value)| {
            let label = Numbers::LABELS.get(i).copied().unwrap_or("");
            let cursor = if i == field { "▏" } else { "" };
            let line = Line::from(format!("{label:>18}: {value}{cursor}"));
            if i == field {
                line.fg(Color::Yellow).bold()
            } else {
                line
            }
        })
        .collect();
    lines.push(Line::from(""));
    lines.push(
        Line::from("↑↓ field · type to edit · Enter applies and resets the run · Esc cancels")
            .fg(Color::DarkGray),
    );
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(Block::bordered().title(" numbers "))
        .render(area, buf);
}
