//! The thin layer that does IO: the terminal, the input thread, the summarizer workers and
//! file writes. Everything it learns goes to [`App::handle_event`]; everything the app
//! wants done comes back from [`App::take_effects`].

use std::io;
use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, MouseButton, MouseEventKind,
};
use crossterm::execute;
use ratatui::layout::{Position, Rect};

use super::model::{App, AppEvent, Effect};
use super::view::pane_at;
use crate::summarizer::{BlockingSummarizer, answer_on_thread};

/// How often the screen is redrawn while nothing happens (the spinner's frame rate).
const FRAME: Duration = Duration::from_millis(100);

/// Runs the inspector in the terminal until the user quits.
pub fn run(mut app: App, summarizer: Arc<dyn BlockingSummarizer>) -> io::Result<()> {
    let mut terminal = ratatui::try_init()?;
    let result = execute!(io::stdout(), EnableMouseCapture)
        .and_then(|()| event_loop(&mut terminal, &mut app, summarizer));
    let _ = execute!(io::stdout(), DisableMouseCapture);
    ratatui::restore();
    result
}

fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    app: &mut App,
    summarizer: Arc<dyn BlockingSummarizer>,
) -> io::Result<()> {
    let start = Instant::now();
    let clock = move || start.elapsed().as_millis() as u64;
    let (tx, rx) = mpsc::channel::<AppEvent>();
    spawn_input(tx.clone(), clock);
    loop {
        terminal.draw(|frame| frame.render_widget(&*app, frame.area()))?;
        if app.quit {
            return Ok(());
        }
        let event = match rx.recv_timeout(FRAME) {
            Ok(event) => Some(event),
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => return Ok(()),
        };
        app.handle_event(AppEvent::Tick(clock()));
        for event in event.into_iter().chain(rx.try_iter()) {
            app.handle_event(event);
        }
        for effect in app.take_effects() {
            perform(effect, app, &summarizer, &tx, clock);
        }
    }
}

/// Reads the terminal on its own thread, so the loop above never blocks on input.
fn spawn_input(tx: Sender<AppEvent>, clock: impl Fn() -> u64 + Send + 'static) {
    thread::spawn(move || {
        loop {
            let event = match event::read() {
                Ok(Event::Key(key)) => AppEvent::Key(key),
                Ok(Event::Mouse(mouse)) => {
                    let over = crossterm::terminal::size()
                        .ok()
                        .and_then(|(width, height)| {
                            pane_at(
                                Rect::new(0, 0, width, height),
                                Position::new(mouse.column, mouse.row),
                            )
                        });
                    match (mouse.kind, over) {
                        (MouseEventKind::ScrollDown, over) => AppEvent::Scroll { lines: 3, over },
                        (MouseEventKind::ScrollUp, over) => AppEvent::Scroll { lines: -3, over },
                        (MouseEventKind::Down(MouseButton::Left), Some(pane)) => {
                            AppEvent::Click(pane)
                        }
                        _ => continue,
                    }
                }
                // A resize only needs a redraw, which any event brings.
                Ok(Event::Resize(..)) => AppEvent::Tick(clock()),
                Ok(_) => continue,
                Err(_) => return,
            };
            if tx.send(event).is_err() {
                return;
            }
        }
    });
}

fn perform(
    effect: Effect,
    app: &mut App,
    summarizer: &Arc<dyn BlockingSummarizer>,
    tx: &Sender<AppEvent>,
    clock: impl Fn() -> u64 + Send + 'static,
) {
    match effect {
        Effect::Summarize {
            generation,
            request,
        } => {
            // One thread per request: the engine hands out at most `max_concurrency` at once.
            let tx = tx.clone();
            let id = request.id;
            answer_on_thread(Arc::clone(summarizer), request, move |result| {
                let _ = tx.send(AppEvent::Answered {
                    generation,
                    id,
                    result,
                    now_ms: clock(),
                });
            });
        }
        Effect::Write { path, text } => {
            let result = std::fs::write(&path, text).map_err(|e| e.to_string());
            app.handle_event(AppEvent::Written { path, result });
        }
    }
}
