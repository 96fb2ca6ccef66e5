//! The bottom line: what just happened or what to do next, and the main keys.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Stylize};
use ratatui::text::Line;
use ratatui::widgets::Widget;

use crate::inspect::model::App;

/// The main keys, always shown at the right.
const HINT: &str = " ? help · Space step · r run · q quit ";

/// The status line.
pub struct StatusLine<'a>(pub &'a App);

impl Widget for StatusLine<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let [text, keys] = Layout::horizontal([
            Constraint::Min(1),
            Constraint::Length(HINT.chars().count() as u16),
        ])
        .areas(area);
        Line::from(self.0.status.as_str()).render(text, buf);
        Line::from(HINT).fg(Color::DarkGray).render(keys, buf);
    }
}
