//! The replay view: the input replayed call by call ([`App::replay`]) — prompt tokens per
//! call with compactions marked against the trigger and the absolute limit, and the
//! running cost relative to keeping everything.

use compactor::replay::{Call, Replay};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Style, Stylize};
use ratatui::symbols::Marker;
use ratatui::text::Line;
use ratatui::widgets::{Axis, Block, Chart, Dataset, GraphType, Paragraph, Widget, Wrap};

use crate::inspect::model::App;
use crate::words::thousands;

/// The app's replay, drawn in `area`.
pub struct ReplayView<'a>(pub &'a App);

/// Below this the charts would be noise: only the figures are drawn.
const CHART_MIN: (u16, u16) = (20, 8);

impl Widget for ReplayView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let app = self.0;
        let block = Block::bordered().title(" replay · v or Esc closes ");
        let inner = block.inner(area);
        block.render(area, buf);
        let Some(replay) = &app.replay else {
            Paragraph::new("no replay").render(inner, buf);
            return;
        };
        let summary = summary(replay);
        if inner.width < CHART_MIN.0 || inner.height < CHART_MIN.1 {
            Paragraph::new(summary)
                .wrap(Wrap { trim: true })
                .render(inner, buf);
            return;
        }
        let [text, prompts, cost] = Layout::vertical([
            Constraint::Length(2),
            Constraint::Percentage(65),
            Constraint::Min(3),
        ])
        .areas(inner);
        Paragraph::new(summary)
            .wrap(Wrap { trim: true })
            .render(text, buf);
        let budget = app.budget();
        prompt_chart(
            &replay.calls,
            budget.trigger_tokens,
            budget.absolute_limit,
            prompts,
            buf,
        );
        cost_chart(&replay.calls, cost, buf);
    }
}

/// The figures in two lines.
fn summary(replay: &Replay) -> Vec<Line<'static>> {
    let t = replay.totals();
    vec![
        Line::from(format!(
            "{} calls · cost {:.2}× keeping everything · facts seen {:.2} · {} compactions · {} over the window",
            t.calls, t.relative_cost, t.facts_seen, t.compactions, t.over_window
        )),
        Line::from(format!(
            "mean prompt {} · peak {} · cache share {:.0}% · new tokens written once {:.2}× · • compaction, trigger yellow, absolute red",
            thousands(t.mean_prompt.round() as u64),
            thousands(t.peak_prompt),
            t.cache_share * 100.0,
            t.floor
        ))
        .fg(Color::DarkGray),
    ]
}

/// Chart points: (call, value).
pub type Points = Vec<(f64, f64)>;

/// Each call's prompt, and the same for the calls compactions came before.
pub fn prompt_points(calls: &[Call]) -> (Points, Points) {
    let prompts: Points = calls
        .iter()
        .enumerate()
        .map(|(i, c)| (i as f64, c.prompt_tokens as f64))
        .collect();
    let marks = calls
        .iter()
        .enumerate()
        .filter(|(_, c)| c.compactions > 0)
        .map(|(i, c)| (i as f64, c.prompt_tokens as f64))
        .collect();
    (prompts, marks)
}

/// The cost of the calls so far relative to keeping everything, after each call.
pub fn running_cost(calls: &[Call]) -> Points {
    let (mut cost, mut baseline) = (0.0, 0.0);
    calls
        .iter()
        .enumerate()
        .map(|(i, c)| {
            cost += c.cost;
            baseline += c.baseline_cost;
            let relative = if baseline > 0.0 { cost / baseline } else { 1.0 };
            (i as f64, relative)
        })
        .collect()
}

fn x_axis(calls: usize) -> Axis<'static> {
    let last = calls.saturating_sub(1).max(1) as f64;
    Axis::default()
        .bounds([0.0, last])
        .labels(["1".to_owned(), format!("{calls} calls")])
        .style(Style::new().fg(Color::DarkGray))
}

fn prompt_chart(calls: &[Call], trigger: u64, limit: u64, area: Rect, buf: &mut Buffer) {
    let (prompts, marks) = prompt_points(calls);
    let peak = calls.iter().map(|c| c.prompt_tokens).max().unwrap_or(0);
    let top = peak.max(limit).max(1) as f64 * 1.05;
    let last = calls.len().saturating_sub(1).max(1) as f64;
    let trigger_line = [(0.0, trigger as f64), (last, trigger as f64)];
    let limit_line = [(0.0, limit as f64), (last, limit as f64)];
    let datasets = vec![
        Dataset::default()
            .name("absolute")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Style::new().fg(Color::Red))
            .data(&limit_line),
        Dataset::default()
            .name("trigger")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Style::new().fg(Color::Yellow))
            .data(&trigger_line),
        Dataset::default()
            .name("prompt")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Style::new().fg(Color::Cyan))
            .data(&prompts),
        Dataset::default()
            .name("compaction")
            .marker(Marker::Dot)
            .graph_type(GraphType::Scatter)
            .style(Style::new().fg(Color::Green).bold())
            .data(&marks),
    ];
    Chart::new(datasets)
        .block(Block::new().title("prompt tokens per call"))
        .x_axis(x_axis(calls.len()))
        .y_axis(
            Axis::default()
                .bounds([0.0, top])
                .labels(["0".to_owned(), thousands(top as u64)])
                .style(Style::new().fg(Color::DarkGray)),
        )
        .render(area, buf);
}

fn cost_chart(calls: &[Call], area: Rect, buf: &mut Buffer) {
    let cost = running_cost(calls);
    let top = cost.iter().map(|&(_, c)| c).fold(1.0, f64::max) * 1.05;
    let last = calls.len().saturating_sub(1).max(1) as f64;
    let keep = [(0.0, 1.0), (last, 1.0)];
    let datasets = vec![
        Dataset::default()
            .name("keep everything")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Style::new().fg(Color::DarkGray))
            .data(&keep),
        Dataset::default()
            .name("running cost")
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(Style::new().fg(Color::Magenta))
            .data(&cost),
    ];
    Chart::new(datasets)
        .block(Block::new().title("running cost, × keeping everything"))
        .x_axis(x_axis(calls.len()))
        .y_axis(
            Axis::default()
                .bounds([0.0, top])
                .labels(["0".to_owned(), format!("{top:.2}")])
                .style(Style::new().fg(Color::DarkGray)),
        )
        .render(area, buf);
}
