//! Drawing: pure functions of the state. `impl Widget for &App` lays the screen out and
//! draws it with one widget per part — [`Header`](header::Header), a
//! [`PaneView`](panes::PaneView) per pane, the [`StatusLine`](status::StatusLine) and the
//! [`OverlayView`](overlay::OverlayView) — each over `&App`; the detail overlay's text is
//! built in [`detail`].

pub mod detail;
pub mod header;
pub mod overlay;
pub mod panes;
pub mod replay;
pub mod status;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Position, Rect};
use ratatui::widgets::{Paragraph, Widget, Wrap};

use super::model::{App, Pane};
use header::Header;
use overlay::OverlayView;
use panes::PaneView;
use status::StatusLine;

/// The smallest terminal the inspector draws its panes in.
pub const MIN_WIDTH: u16 = 60;
/// See [`MIN_WIDTH`].
pub const MIN_HEIGHT: u16 = 16;

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
        Header(self).render(header, buf);
        for (pane, rect) in panes {
            PaneView { app: self, pane }.render(rect, buf);
        }
        StatusLine(self).render(status, buf);
        OverlayView(self).render(area, buf);
    }
}
