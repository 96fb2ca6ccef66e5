//! The header: the input's name, where the run is, the numbers, and the token gauge.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use compactor::budget::Budget;

use crate::inspect::model::{App, Mode, Phase};
use crate::words::thousands;

/// The top three rows: a title line, then the gauge.
pub struct Header<'a>(pub &'a App);

impl Widget for Header<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let app = self.0;
        let b = app.budget();
        let [title, gauge] =
            Layout::vertical([Constraint::Length(1), Constraint::Length(2)]).areas(area);
        let share = app.tokens as f64 * 100.0 / b.absolute_limit.max(1) as f64;
        Line::from(vec![
            Span::styled(format!(" {} ", app.name), Style::new().bold().reversed()),
            Span::styled(format!(" {} ", phase_text(app)), Style::new().fg(Color::Yellow).bold()),
            Span::raw(format!(
                "· {} tokens ({share:.0}% of absolute) · t target {} · T trigger {} · E effective {} · A absolute {}",
                thousands(app.tokens),
                thousands(b.target_tokens),
                thousands(b.trigger_tokens),
                thousands(b.effective_limit),
                thousands(b.absolute_limit),
            )),
        ])
        .render(title, buf);
        (&TokenGauge {
            tokens: app.tokens,
            budget: b,
        })
            .render(gauge, buf);
    }
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
