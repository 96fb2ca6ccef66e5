//! Drawing: `impl Widget for &T` for the app and each pane. Pure functions of the state.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Widget, Wrap};

use compactor::budget::Budget;
use compactor::message::Message;
use compactor::plan::SegmentState as Planned;

use super::model::{
    App, EventLog, LadderTable, LevelOutcome, Mode, Numbers, Overlay, Pane, Phase, RequestState,
    RequestTable, SegmentState, SegmentTable, level_outcome, request_summary, seconds,
};
use crate::plan::thousands;

/// The smallest terminal the inspector draws its panes in.
pub const MIN_WIDTH: u16 = 60;
/// See [`MIN_WIDTH`].
pub const MIN_HEIGHT: u16 = 16;

const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/// The token gauge: tokens against the limits, target and trigger marked.
pub struct TokenGauge<'a> {
    /// Tokens of the shown conversation.
    pub tokens: u64,
    /// The numbers.
    pub budget: &'a Budget,
}

impl Widget for &TokenGauge<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.width < 4 || area.height == 0 {
            return;
        }
        let b = self.budget;
        let scale = b
            .effective_limit
            .max(b.absolute_limit)
            .max(self.tokens)
            .max(1);
        let width = u64::from(area.width);
        let at = |tokens: u64| -> u16 { ((tokens * (width - 1)) / scale).min(width - 1) as u16 };
        let filled = ((self.tokens * width) / scale).min(width) as u16;
        let color = if self.tokens > b.absolute_limit {
            Color::Red
        } else if self.tokens > b.trigger_tokens {
            Color::Yellow
        } else {
            Color::Green
        };
        for x in 0..area.width {
            let (symbol, style) = if x < filled {
                ("█", Style::new().fg(color))
            } else {
                ("░", Style::new().fg(Color::DarkGray))
            };
            buf[(area.x + x, area.y)]
                .set_symbol(symbol)
                .set_style(style);
        }
        if area.height < 2 {
            return;
        }
        let y = area.y + 1;
        let marks = [
            (b.target_tokens, "t", Color::Green),
            (b.trigger_tokens, "T", Color::Yellow),
            (b.effective_limit, "E", Color::Blue),
            (b.absolute_limit, "A", Color::Red),
        ];
        for (tokens, symbol, color) in marks {
            buf[(area.x + at(tokens), y)]
                .set_symbol(symbol)
                .set_style(Style::new().fg(color).add_modifier(Modifier::BOLD));
        }
    }
}

/// Renders `lines` into `area`, scrolled so that `selected` is visible and highlighted.
fn list(
    lines: Vec<Line<'_>>,
    selected: Option<usize>,
    highlight: bool,
    area: Rect,
    buf: &mut Buffer,
) {
    let height = usize::from(area.height);
    if height == 0 || area.width == 0 {
        return;
    }
    let offset = match selected {
        Some(s) if s >= height => s + 1 - height,
        Some(_) => 0,
        None => lines.len().saturating_sub(height),
    };
    for (row, (i, line)) in lines
        .into_iter()
        .enumerate()
        .skip(offset)
        .take(height)
        .enumerate()
    {
        let y = area.y + row as u16;
        let line_area = Rect::new(area.x, y, area.width, 1);
        let line = if highlight && Some(i) == selected {
            line.patch_style(Style::new().add_modifier(Modifier::REVERSED))
        } else {
            line
        };
        line.render(line_area, buf);
    }
}

fn state_style(state: SegmentState) -> Style {
    match state {
        SegmentState::Planned(Planned::Raw) => Style::new(),
        SegmentState::Planned(Planned::Tail) => Style::new().fg(Color::Cyan),
        SegmentState::Planned(Planned::Pinned) => Style::new().fg(Color::Magenta),
        SegmentState::Planned(Planned::Masked) => Style::new().fg(Color::Yellow),
        SegmentState::Planned(Planned::Summarized) => Style::new().fg(Color::Green),
        SegmentState::InFlight => Style::new().fg(Color::Blue).add_modifier(Modifier::BOLD),
    }
}

impl Widget for &SegmentTable {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let mut lines = vec![
            Line::from(format!(
                "{:>3} {:>3} {:>8}  {:<9} {:>7}  state",
                "seg", "age", "messages", "roles", "tokens"
            ))
            .bold(),
        ];
        let mut selected_line = None;
        for row in &self.rows {
            if row.index == self.tail_segment {
                lines.push(Line::from("──── tail ────").fg(Color::Cyan));
            }
            if row.index == self.selected {
                selected_line = Some(lines.len());
            }
            let age = row.age.map_or("-".to_owned(), |a| a.to_string());
            let roles: String = row.roles.chars().take(9).collect();
            lines.push(Line::from(vec![
                Span::raw(format!(
                    "{:>3} {:>3} {:>8}  {:<9} {:>7}  ",
                    row.index,
                    age,
                    format!("{}..{}", row.messages.start, row.messages.end),
                    roles,
                    thousands(row.tokens)
                )),
                Span::styled(row.state.as_str(), state_style(row.state)),
            ]));
        }
        list(lines, selected_line, true, area, buf);
    }
}

impl Widget for &LadderTable {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let mut lines = vec![
            Line::from(format!(
                "{:<10} {:>6} {:>5} {:>13}  outcome",
                "level", "at", "ok/rq", "tokens"
            ))
            .bold(),
        ];
        for row in &self.rows {
            let entered = row
                .entered_ms
                .map_or("—".to_owned(), |ms| format!("+{}", seconds(ms)));
            let tokens = match (row.tokens_before, row.tokens_after) {
                (Some(before), Some(after)) => {
                    format!("{}→{}", thousands(before), thousands(after))
                }
                (Some(before), None) => format!("{}→…", thousands(before)),
                _ => "—".to_owned(),
            };
            let style = match row.outcome {
                LevelOutcome::Running => Style::new().fg(Color::Blue).add_modifier(Modifier::BOLD),
                LevelOutcome::Pending => Style::new().fg(Color::DarkGray),
                LevelOutcome::Skipped { .. } => Style::new().fg(Color::Yellow),
                LevelOutcome::Left => Style::new(),
            };
            lines.push(
                Line::from(format!(
                    "{:<10} {:>6} {:>5} {:>13}  {}",
                    row.level.as_str(),
                    entered,
                    format!("{}/{}", row.answered, row.requests),
                    tokens,
                    level_outcome(row)
                ))
                .style(style),
            );
        }
        list(lines, Some(self.selected + 1), true, area, buf);
    }
}

impl Widget for &RequestTable {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if self.rows.is_empty() {
            Line::from("no requests yet")
                .fg(Color::DarkGray)
                .render(area, buf);
            return;
        }
        let lines: Vec<Line> = self
            .rows
            .values()
            .map(|row| {
                let (mark, style) = match &row.state {
                    RequestState::Queued => ("·".to_owned(), Style::new().fg(Color::DarkGray)),
                    RequestState::InFlight { since_ms } => {
                        let frame = (self.now_ms.saturating_sub(*since_ms) / 100) as usize;
                        (
                            SPINNER[frame % SPINNER.len()].to_owned(),
                            Style::new().fg(Color::Blue).add_modifier(Modifier::BOLD),
                        )
                    }
                    RequestState::Answered { .. } => {
                        ("✓".to_owned(), Style::new().fg(Color::Green))
                    }
                    RequestState::Failed { .. } => ("✗".to_owned(), Style::new().fg(Color::Red)),
                    RequestState::Abandoned => ("-".to_owned(), Style::new().fg(Color::DarkGray)),
                };
                Line::from(vec![
                    Span::styled(format!("{mark} "), style),
                    Span::raw(request_summary(row, self.now_ms)),
                ])
            })
            .collect();
        list(lines, Some(self.selected), true, area, buf);
    }
}

impl Widget for &EventLog {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let lines: Vec<Line> = self
            .lines
            .iter()
            .map(|l| {
                let line = Line::from(vec![
                    Span::styled(
                        format!("{:>7} ", format!("+{}", seconds(l.at_ms))),
                        Style::new().fg(Color::DarkGray),
                    ),
                    Span::raw(l.text.clone()),
                ]);
                if l.warning {
                    line.fg(Color::Yellow)
                } else {
                    line
                }
            })
            .collect();
        list(lines, self.selected, self.selected.is_some(), area, buf);
    }
}

fn pane_block(title: String, focused: bool) -> Block<'static> {
    let style = if focused {
        Style::new().fg(Color::Yellow)
    } else {
        Style::new().fg(Color::DarkGray)
    };
    Block::new()
        .borders(Borders::ALL)
        .border_style(style)
        .title(Line::from(title).bold())
}

fn phase_text(app: &App) -> String {
    let mode = match app.mode {
        Mode::Step => "step",
        Mode::Run => "run",
    };
    let phase = match &app.phase {
        Phase::Ready => "ready".to_owned(),
        Phase::Running => {
            let flying = app.requests.in_flight();
            if flying > 0 {
                format!("running, {flying} in flight")
            } else {
                "running".to_owned()
            }
        }
        Phase::Paused => "paused".to_owned(),
        Phase::Done(_) => "done".to_owned(),
        Phase::Failed(_) => "failed".to_owned(),
        Phase::Cancelled => "cancelled".to_owned(),
    };
    format!("{mode} · {phase}")
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
pub const KEYS: [(&str, &str); 16] = [
    ("Space", "step: begin a run, or enter the next ladder level"),
    ("r", "run to the end"),
    ("c", "cancel the run (nothing is applied)"),
    ("u", "undo: the original conversation and numbers"),
    (
        "n",
        "edit the numbers (window, reserve, trigger, target, recent turns)",
    ),
    (
        "e",
        "export the result next to the input as <name>.compacted.json",
    ),
    ("b", "before/after: the whole conversation side by side"),
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
    let block = Block::bordered().title(format!(
        " before {} tokens · after {} tokens · Esc closes ",
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
        Line::from("↑↓ field · digits edit · Enter applies and resets the run · Esc cancels")
            .fg(Color::DarkGray),
    );
    Paragraph::new(lines)
        .wrap(Wrap { trim: false })
        .block(Block::bordered().title(" numbers "))
        .render(area, buf);
}

/// Where the inspector draws what, on a screen of at least [`MIN_WIDTH`]×[`MIN_HEIGHT`].
struct Screen {
    /// Names, numbers and the token gauge.
    header: Rect,
    /// Segments left; ladder and requests right; the event log below.
    panes: [(Pane, Rect); 4],
    /// The status line.
    status: Rect,
}

fn screen(area: Rect) -> Screen {
    let [header, body, log, status] = Layout::vertical([
        Constraint::Length(3),
        Constraint::Min(7),
        Constraint::Length((area.height / 4).clamp(4, 12)),
        Constraint::Length(1),
    ])
    .areas(area);
    let [left, right] =
        Layout::horizontal([Constraint::Percentage(52), Constraint::Percentage(48)]).areas(body);
    let [ladder, requests] =
        Layout::vertical([Constraint::Length(7), Constraint::Min(3)]).areas(right);
    Screen {
        header,
        panes: [
            (Pane::Segments, left),
            (Pane::Ladder, ladder),
            (Pane::Requests, requests),
            (Pane::Log, log),
        ],
        status,
    }
}

/// The pane drawn at `position` on a screen of `area`, if any.
pub fn pane_at(area: Rect, position: Position) -> Option<Pane> {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        return None;
    }
    screen(area)
        .panes
        .into_iter()
        .find(|(_, rect)| rect.contains(position))
        .map(|(pane, _)| pane)
}

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.width == 0 || area.height == 0 {
            return;
        }
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            let text = format!(
                "terminal too small: {}×{}, need {MIN_WIDTH}×{MIN_HEIGHT}",
                area.width, area.height
            );
            Paragraph::new(text)
                .wrap(Wrap { trim: true })
                .render(area, buf);
            return;
        }
        let Screen {
            header,
            panes,
            status,
        } = screen(area);
        // Header: names, numbers, the gauge.
        let b = self.budget();
        let [title, gauge] =
            Layout::vertical([Constraint::Length(1), Constraint::Length(2)]).areas(header);
        let share = self.tokens as f64 * 100.0 / b.absolute_limit.max(1) as f64;
        Line::from(vec![
            Span::styled(format!(" {} ", self.name), Style::new().bold().reversed()),
            Span::styled(format!(" {} ", phase_text(self)), Style::new().fg(Color::Yellow).bold()),
            Span::raw(format!(
                "· {} tokens ({share:.0}% of absolute) · t target {} · T trigger {} · E effective {} · A absolute {}",
                thousands(self.tokens),
                thousands(b.target_tokens),
                thousands(b.trigger_tokens),
                thousands(b.effective_limit),
                thousands(b.absolute_limit),
            )),
        ])
        .render(title, buf);
        (&TokenGauge {
            tokens: self.tokens,
            budget: b,
        })
            .render(gauge, buf);

        let title = |pane| match pane {
            Pane::Segments => format!(" segments · {} messages ", self.messages.len()),
            Pane::Ladder => " ladder ".to_owned(),
            Pane::Requests => match self.requests.in_flight() {
                0 => format!(" requests · {} ", self.summarizer),
                n => format!(" requests · {n} in flight · {} ", self.summarizer),
            },
            Pane::Log => " events ".to_owned(),
        };
        for (pane, rect) in panes {
            let block = pane_block(title(pane), self.focus == pane);
            let inner = block.inner(rect);
            block.render(rect, buf);
            match pane {
                Pane::Segments => self.segments.render(inner, buf),
                Pane::Ladder => self.ladder.render(inner, buf),
                Pane::Requests => self.requests.render(inner, buf),
                Pane::Log => self.log.render(inner, buf),
            }
        }

        let hint = " ? help · Space step · r run · q quit ";
        let [text, keys] = Layout::horizontal([
            Constraint::Min(1),
            Constraint::Length(hint.chars().count() as u16),
        ])
        .areas(status);
        Line::from(self.status.as_str()).render(text, buf);
        Line::from(hint).fg(Color::DarkGray).render(keys, buf);

        let Some(overlay) = &self.overlay else {
            return;
        };
        let rect = centered(area, 90, 85);
        Clear.render(rect, buf);
        match overlay {
            Overlay::Help => render_help(rect, buf),
            Overlay::Detail { target, scroll } => {
                let (title, lines) = self.detail(*target);
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
                    .scroll((*scroll, 0))
                    .block(Block::bordered().title(format!(" {title} · ↑↓ scroll · Esc closes ")))
                    .render(rect, buf);
            }
            Overlay::Compare { scroll } => render_compare(self, *scroll, rect, buf),
            Overlay::Edit { fields, field } => {
                let rect = centered(area, 70, 60);
                Clear.render(rect, buf);
                render_edit(fields, *field, rect, buf);
            }
        }
    }
}
