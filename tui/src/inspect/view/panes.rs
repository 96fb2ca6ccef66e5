//! The panes: segments, ladder, requests and events, each a widget in a titled frame.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Widget};

use crate::inspect::model::{
    App, EventLog, LadderTable, LevelOutcome, LevelRow, Pane, RequestRow, RequestState,
    RequestTable, RowState, SegmentTable,
};
use crate::words::thousands;
use compactor::plan::SegmentState;

const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/// One pane of the app in its frame: the title says what it holds, the frame's colour
/// whether it has the keyboard.
pub struct PaneView<'a> {
    /// The app.
    pub app: &'a App,
    /// Which pane.
    pub pane: Pane,
}

impl PaneView<'_> {
    fn title(&self) -> String {
        let app = self.app;
        match self.pane {
            Pane::Segments => format!(" segments · {} messages ", app.messages.len()),
            Pane::Ladder => " ladder ".to_owned(),
            Pane::Requests => match app.requests.in_flight() {
                0 => format!(" requests · {} ", app.summarizer),
                n => format!(" requests · {n} in flight · {} ", app.summarizer),
            },
            Pane::Log => " events ".to_owned(),
        }
    }
}

impl Widget for PaneView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let block = pane_block(self.title(), self.app.focus == self.pane);
        let inner = block.inner(area);
        block.render(area, buf);
        match self.pane {
            Pane::Segments => self.app.segments.render(inner, buf),
            Pane::Ladder => self.app.ladder.render(inner, buf),
            Pane::Requests => self.app.requests.render(inner, buf),
            Pane::Log => self.app.log.render(inner, buf),
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

fn state_style(state: RowState) -> Style {
    match state {
        RowState::Planned(SegmentState::Raw) => Style::new(),
        RowState::Planned(SegmentState::Tail) => Style::new().fg(Color::Cyan),
        RowState::Planned(SegmentState::Pinned) => Style::new().fg(Color::Magenta),
        RowState::Planned(SegmentState::Masked) => Style::new().fg(Color::Yellow),
        RowState::Planned(SegmentState::Summarized) => Style::new().fg(Color::Green),
        RowState::InFlight => Style::new().fg(Color::Blue).add_modifier(Modifier::BOLD),
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

/// A level's outcome in words.
pub fn level_outcome(row: &LevelRow) -> String {
    let mut text = match (&row.outcome, row.tokens_before, row.tokens_after) {
        (LevelOutcome::Pending, ..) => "—".into(),
        (LevelOutcome::Running, ..) => "running".into(),
        (LevelOutcome::Skipped { predicted }, ..) => {
            format!("skipped (≥{})", crate::words::thousands(*predicted))
        }
        (LevelOutcome::Left, Some(before), Some(after)) if after < before => {
            format!("−{}", crate::words::thousands(before - after))
        }
        (LevelOutcome::Left, ..) => "no change".into(),
    };
    if row.failed > 0 {
        text.push_str(&format!(", {} failed", row.failed));
    }
    if row.cache_hits > 0 {
        text.push_str(&format!(", {} cached", row.cache_hits));
    }
    text
}

/// One line about a request: id, level, size, state and times.
pub fn request_summary(row: &RequestRow, now_ms: u64) -> String {
    let r = &row.request;
    let state = match &row.state {
        RequestState::InFlight { since_ms } => seconds(now_ms.saturating_sub(*since_ms)),
        RequestState::Answered { took_ms, .. } => format!("done {}", seconds(*took_ms)),
        RequestState::Failed { reason, took_ms } => {
            format!("failed {}: {reason}", seconds(*took_ms))
        }
        RequestState::Abandoned => "abandoned".into(),
    };
    let retry = if r.attempt > 1 {
        format!(" try {}", r.attempt)
    } else {
        String::new()
    };
    format!(
        "#{} {}{retry} · {} msg · {} tok · {state}",
        r.id.0,
        r.level,
        r.covers.len(),
        crate::words::thousands(r.input_tokens)
    )
}

/// Milliseconds as seconds with one decimal.
pub fn seconds(ms: u64) -> String {
    format!("{}.{}s", ms / 1000, (ms % 1000) / 100)
}
