//! The inspector without a terminal: keys in, state and rendered buffers out.

use std::path::PathBuf;

use compactor::engine::{CompactionConfig, SummaryFailure};
use compactor::extractive::Extractive;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect};
use ratatui::widgets::Widget;

use super::SAMPLE;
use super::model::{App, AppEvent, Effect, Mode, Overlay, Pane, Phase, RequestState};
use super::view::detail::detail;
use super::view::header::TokenGauge;
use super::view::pane_at;
use crate::input::{FormatArg, View, parse_text};
use crate::summarizer::BlockingSummarizer;

/// The bundled sample against a window that forces compaction. LIGHT is told to clear
/// nothing, so MODERATE has to ask the summarizer.
fn app() -> App {
    app_with(config())
}

/// The numbers of [`app`].
fn config() -> CompactionConfig {
    let mut config = CompactionConfig::default();
    config.budget.max_context_tokens = Some(8_000);
    config.budget.output_reserve = Some(1_000);
    config.clear_at_least = u64::MAX;
    config
}

fn app_with(config: CompactionConfig) -> App {
    let conversation = parse_text(
        SAMPLE,
        "sample.json",
        FormatArg::Openai,
        false,
        View::Context,
    )
    .expect("the sample parses");
    App::new(
        "sample.json",
        conversation,
        PathBuf::from("/tmp/never-written.json"),
        config,
        "extractive",
    )
    .expect("the numbers resolve")
}

fn key(app: &mut App, code: KeyCode) {
    app.handle_key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn press(app: &mut App, c: char) {
    key(app, KeyCode::Char(c));
}

/// Answers every request handed out (and those that follow) with `answer`, at `now_ms`.
fn settle(
    app: &mut App,
    now_ms: u64,
    answer: &dyn Fn(&compactor::engine::SummaryRequest) -> Result<String, SummaryFailure>,
) -> usize {
    let mut answered = 0;
    for _ in 0..100 {
        let effects = app.take_effects();
        if effects.is_empty() {
            return answered;
        }
        for effect in effects {
            if let Effect::Summarize {
                generation,
                request,
            } = effect
            {
                answered += 1;
                app.handle_event(AppEvent::Answered {
                    generation,
                    id: request.id,
                    result: answer(&request),
                    now_ms,
                });
            }
        }
    }
    panic!("requests kept coming");
}

fn extractive(request: &compactor::engine::SummaryRequest) -> Result<String, SummaryFailure> {
    Extractive.summarize(request)
}

fn summarize_effects(app: &mut App) -> Vec<compactor::engine::SummaryRequest> {
    app.take_effects()
        .into_iter()
        .filter_map(|e| match e {
            Effect::Summarize { request, .. } => Some(request),
            Effect::Write { .. } => None,
        })
        .collect()
}

/// The buffer as text, one line per row, trailing blanks trimmed.
fn screen(app: &App, width: u16, height: u16) -> String {
    let mut buf = Buffer::empty(Rect::new(0, 0, width, height));
    app.render(buf.area, &mut buf);
    text(&buf)
}

fn text(buf: &Buffer) -> String {
    let area = buf.area;
    let mut out = String::new();
    for y in 0..area.height {
        let mut line = String::new();
        for x in 0..area.width {
            line.push_str(buf[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[test]
fn ready_shows_the_plan_of_the_input() {
    let app = app();
    assert_eq!(app.phase, Phase::Ready);
    assert!(app.take_effects_is_empty_for_test());
    insta::assert_snapshot!("ready", screen(&app, 110, 32));
}

impl App {
    fn take_effects_is_empty_for_test(&self) -> bool {
        self.effects.is_empty()
    }
}

#[test]
fn space_walks_one_level_and_holds_the_next_levels_requests() {
    let mut app = app();
    press(&mut app, ' ');
    assert_eq!(app.phase, Phase::Paused, "{}", app.status);
    assert!(
        summarize_effects(&mut app).is_empty(),
        "MODERATE waits for Space"
    );
    assert!(
        app.status.starts_with("paused after light"),
        "{}",
        app.status
    );
    insta::assert_snapshot!("paused_after_light", screen(&app, 110, 32));

    // The run's clock stands still while held.
    app.handle_event(AppEvent::Tick(60_000));
    assert_eq!(app.run_clock(), 0);

    press(&mut app, ' ');
    assert_eq!(app.phase, Phase::Running);
    let requests = summarize_effects(&mut app);
    assert!(!requests.is_empty());
    assert!(
        requests
            .iter()
            .all(|r| r.level == compactor::ladder::Level::Moderate)
    );
    app.handle_event(AppEvent::Tick(60_450));
    assert_eq!(app.run_clock(), 450);
    assert_eq!(app.requests.in_flight(), requests.len());
    insta::assert_snapshot!("in_flight", screen(&app, 110, 32));

    // Answers come back one at a time; the panes follow each.
    for (n, request) in requests.iter().enumerate() {
        app.handle_event(AppEvent::Answered {
            generation: app.stepper.generation(),
            id: request.id,
            result: extractive(request),
            now_ms: 61_000 + n as u64 * 100,
        });
        assert_eq!(app.requests.in_flight(), requests.len() - n - 1);
    }
    settle(&mut app, 62_000, &extractive);
    while app.phase == Phase::Paused {
        press(&mut app, ' ');
        settle(&mut app, 62_000, &extractive);
    }
    assert!(matches!(app.phase, Phase::Done(_)), "{:?}", app.phase);
    assert!(app.tokens < app.original_tokens());
    insta::assert_snapshot!("done", screen(&app, 110, 32));
}

#[test]
fn run_mode_goes_to_the_end_and_export_writes_the_input_format() {
    let mut app = app();
    press(&mut app, 'e');
    assert!(
        app.status.starts_with("nothing to export"),
        "{}",
        app.status
    );
    press(&mut app, 'r');
    assert_eq!(app.mode, Mode::Run);
    settle(&mut app, 10, &extractive);
    let Phase::Done(outcome) = &app.phase else {
        panic!("not done: {:?}", app.phase);
    };
    let after = outcome.messages.len();
    press(&mut app, 'e');
    let effects = app.take_effects();
    let [Effect::Write { path, text }] = effects.as_slice() else {
        panic!("one write expected: {effects:?}");
    };
    assert_eq!(path, &PathBuf::from("/tmp/never-written.json"));
    let json: serde_json::Value = serde_json::from_str(text).expect("export is JSON");
    assert_eq!(json.as_array().map(Vec::len), Some(after));
    app.handle_event(AppEvent::Written {
        path: path.clone(),
        result: Ok(()),
    });
    assert_eq!(app.status, "exported to /tmp/never-written.json");
}

#[test]
fn requests_are_bounded_by_max_concurrency() {
    // A corpus conversation whose MODERATE level asks several requests.
    let path = compactor_tests::corpus_dir().join("ctf-rock.json");
    let text = std::fs::read_to_string(&path).expect("corpus file");
    let conversation = parse_text(
        &text,
        "ctf-rock.json",
        FormatArg::Openai,
        true,
        View::Context,
    )
    .expect("parses");
    let mut config = CompactionConfig::default();
    config.budget.max_context_tokens = Some(6_000);
    config.budget.output_reserve = Some(1_000);
    config.max_concurrency = 1;
    let mut app = App::new(
        "ctf-rock.json",
        conversation,
        PathBuf::from("x"),
        config,
        "extractive",
    )
    .expect("numbers");
    press(&mut app, 'r');
    let mut total = 0;
    loop {
        let requests = summarize_effects(&mut app);
        if requests.is_empty() {
            break;
        }
        assert_eq!(requests.len(), 1, "one at a time");
        assert_eq!(app.requests.in_flight(), 1);
        total += 1;
        app.handle_event(AppEvent::Answered {
            generation: app.stepper.generation(),
            id: requests[0].id,
            result: extractive(&requests[0]),
            now_ms: 5,
        });
    }
    assert!(total > 1, "the sample needs several requests");
    assert!(matches!(app.phase, Phase::Done(_)));
}

#[test]
fn cancel_drops_the_run_and_late_answers() {
    let mut app = app();
    press(&mut app, 'r');
    let requests = summarize_effects(&mut app);
    assert!(!requests.is_empty());
    press(&mut app, 'c');
    assert_eq!(app.phase, Phase::Cancelled);
    assert_eq!(app.messages, app.original());
    assert!(
        app.requests
            .rows
            .values()
            .all(|r| r.state == RequestState::Abandoned)
    );
    insta::assert_snapshot!("cancelled", screen(&app, 110, 32));
    // An answer arriving after the cancel changes nothing.
    app.handle_event(AppEvent::Answered {
        generation: app.stepper.generation() - 1,
        id: requests[0].id,
        result: Ok("late".into()),
        now_ms: 10,
    });
    assert_eq!(app.phase, Phase::Cancelled);
}

#[test]
fn failures_fall_back_and_open_the_breaker_after_three_failed_runs() {
    let mut app = app();
    let fail = |_: &compactor::engine::SummaryRequest| -> Result<String, SummaryFailure> {
        Err(SummaryFailure::failed("model down"))
    };
    for _ in 0..3 {
        press(&mut app, 'r');
        settle(&mut app, 1, &fail);
        assert!(matches!(app.phase, Phase::Failed(_)), "{:?}", app.phase);
    }
    assert!(
        app.log
            .lines
            .iter()
            .any(|l| l.text.contains("kept") && l.warning)
    );
    assert!(
        app.ladder
            .rows
            .iter()
            .any(|r| r.failed > 0 && r.fallbacks > 0)
    );
    insta::assert_snapshot!("failed", screen(&app, 110, 32));
    press(&mut app, 'r');
    let Phase::Failed(reason) = &app.phase else {
        panic!("{:?}", app.phase);
    };
    assert!(reason.contains("circuit open"), "{reason}");
    // Undo starts afresh: original numbers, closed circuit.
    press(&mut app, 'u');
    assert_eq!(app.phase, Phase::Ready);
    press(&mut app, 'r');
    settle(&mut app, 1, &extractive);
    assert!(matches!(app.phase, Phase::Done(_)), "{:?}", app.phase);
}

#[test]
fn numbers_are_edited_in_place_and_undone() {
    let mut app = app();
    let original = app.numbers.clone();
    press(&mut app, 'n');
    assert!(matches!(app.overlay, Some(Overlay::Edit { .. })));
    insta::assert_snapshot!("edit", screen(&app, 110, 32));
    // window: 8000 → 12000
    for _ in 0..4 {
        key(&mut app, KeyCode::Backspace);
    }
    for c in "12000".chars() {
        press(&mut app, c);
    }
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Backspace);
    press(&mut app, '2');
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.overlay, None, "{}", app.status);
    assert_eq!(app.numbers.max_context, 12_000);
    assert_eq!(app.numbers.keep_recent_turns, 2);
    assert_eq!(app.budget().max_context_tokens, 12_000);
    // The focus takes any text and reaches the config the runs use.
    press(&mut app, 'n');
    key(&mut app, KeyCode::Up); // from the window up to the last field, the focus
    for c in "keep the failing test names".chars() {
        press(&mut app, c);
    }
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.overlay, None, "{}", app.status);
    assert_eq!(
        app.config.instructions.as_deref(),
        Some("keep the failing test names")
    );
    press(&mut app, 'u');
    press(&mut app, 'u');
    assert_eq!(app.numbers, original);
    // A bad number is refused and the overlay stays.
    press(&mut app, 'n');
    press(&mut app, '.');
    press(&mut app, '.');
    key(&mut app, KeyCode::Enter);
    assert!(matches!(app.overlay, Some(Overlay::Edit { .. })));
    assert!(app.status.contains("not a number"), "{}", app.status);
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.overlay, None);
    assert_eq!(app.numbers, original);
}

#[test]
fn keys_move_focus_selection_and_overlays() {
    let mut app = app();
    assert_eq!(app.focus, Pane::Segments);
    press(&mut app, 'j');
    press(&mut app, 'j');
    key(&mut app, KeyCode::Down);
    assert_eq!(app.segments.selected, 3);
    press(&mut app, 'k');
    assert_eq!(app.segments.selected, 2);
    key(&mut app, KeyCode::Enter);
    assert!(matches!(app.overlay, Some(Overlay::Detail { .. })));
    insta::assert_snapshot!("detail_segment", screen(&app, 110, 32));
    app.handle_event(AppEvent::Scroll {
        lines: 3,
        over: Some(Pane::Log),
    });
    assert!(matches!(
        app.overlay,
        Some(Overlay::Detail { scroll: 3, .. })
    ));
    assert_eq!(app.focus, Pane::Segments, "the overlay took the wheel");
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.overlay, None);
    assert!(!app.quit, "Esc closes the overlay first");

    press(&mut app, '?');
    insta::assert_snapshot!("help", screen(&app, 110, 32));
    key(&mut app, KeyCode::Esc);

    key(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Pane::Ladder);
    key(&mut app, KeyCode::BackTab);
    key(&mut app, KeyCode::BackTab);
    assert_eq!(app.focus, Pane::Log);

    press(&mut app, 'b');
    assert!(matches!(app.overlay, Some(Overlay::Compare { .. })));
    key(&mut app, KeyCode::Esc);
    key(&mut app, KeyCode::Esc);
    assert!(app.quit);
}

#[test]
fn the_request_detail_shows_the_prompt_and_the_answer() {
    let mut app = app();
    press(&mut app, 'r');
    settle(&mut app, 300, &extractive);
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Pane::Requests);
    key(&mut app, KeyCode::Enter);
    let Some(Overlay::Detail { target, .. }) = app.overlay else {
        panic!("no detail");
    };
    let (_, lines) = detail(&app, target);
    let joined = lines.join("\n");
    assert!(joined.contains("── prompt: system ──"), "{joined}");
    assert!(joined.contains("<transcript>"), "{joined}");
    assert!(joined.contains("── answer ──"), "{joined}");
    insta::assert_snapshot!("detail_request", screen(&app, 110, 32));
    key(&mut app, KeyCode::Esc);
    press(&mut app, 'b');
    insta::assert_snapshot!("compare", screen(&app, 110, 32));
}

#[test]
fn tiny_and_empty_areas_do_not_panic() {
    let mut app = app();
    press(&mut app, 'r');
    for (w, h) in [(0, 0), (1, 1), (0, 5), (5, 0), (2, 2), (59, 40), (200, 15)] {
        let _ = screen(&app, w, h);
        for overlay in [
            Overlay::Help,
            Overlay::Compare { scroll: 9 },
            Overlay::Edit {
                fields: vec!["1".into()],
                field: 0,
            },
        ] {
            app.overlay = Some(overlay);
            let _ = screen(&app, w, h);
        }
        app.overlay = None;
    }
    insta::assert_snapshot!("too_small", screen(&app, 40, 8));
    assert_eq!(screen(&app, 1, 1), "t\n");
    assert_eq!(screen(&app, 0, 0), "");
    // Widgets alone, in areas too small for them.
    let budget = app.budget().clone();
    for (w, h) in [(0, 0), (1, 1), (3, 2), (4, 1)] {
        let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
        (&TokenGauge {
            tokens: 9_000,
            budget: &budget,
        })
            .render(buf.area, &mut buf);
        app.segments.render(buf.area, &mut buf);
        app.ladder.render(buf.area, &mut buf);
        app.requests.render(buf.area, &mut buf);
        app.log.render(buf.area, &mut buf);
    }
}

#[test]
fn the_gauge_marks_target_trigger_and_limits() {
    let app = app();
    let budget = app.budget().clone();
    let gauge = |tokens| {
        let mut buf = Buffer::empty(Rect::new(0, 0, 40, 2));
        (&TokenGauge {
            tokens,
            budget: &budget,
        })
            .render(buf.area, &mut buf);
        text(&buf)
    };
    insta::assert_snapshot!(
        "gauge",
        format!("{}{}{}", gauge(0), gauge(6_000), gauge(9_000))
    );
}

#[test]
fn ctrl_c_quits_from_anywhere() {
    let mut app = app();
    press(&mut app, 'n');
    app.handle_key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
    assert!(app.quit);
}

#[test]
fn pending_in_flight_failure_is_shown_per_request() {
    let mut app = app();
    press(&mut app, 'r');
    let requests = summarize_effects(&mut app);
    let first = &requests[0];
    app.handle_event(AppEvent::Answered {
        generation: app.stepper.generation(),
        id: first.id,
        result: Err(SummaryFailure::failed("HTTP 500: boom")),
        now_ms: 250,
    });
    let row = &app.requests.rows[&first.id];
    assert!(
        matches!(&row.state, RequestState::Failed { reason, took_ms: 250 } if reason.contains("HTTP 500")),
        "{:?}",
        row.state
    );
    assert!(
        app.log
            .lines
            .iter()
            .any(|l| l.text.contains("failed: HTTP 500"))
    );
}

#[test]
fn requests_the_engine_times_out_leave_the_in_flight_list() {
    let mut config = config();
    config.request_timeout_ms = 1_000;
    let mut app = app_with(config);
    press(&mut app, 'r');
    let requests = summarize_effects(&mut app);
    assert!(!requests.is_empty());
    app.handle_event(AppEvent::Tick(100));
    assert_eq!(app.requests.in_flight(), requests.len());
    // Nobody answers: past the deadline the engine fails them, and so do the rows.
    app.handle_event(AppEvent::Tick(5_000));
    assert!(requests.iter().all(|r| matches!(
        app.requests.rows.get(&r.id).map(|row| &row.state),
        Some(RequestState::Failed { reason, .. }) if reason.contains("deadline")
    )));
}

#[test]
fn a_summarizer_that_never_answers_cannot_hold_the_run() {
    let mut config = config();
    config.request_timeout_ms = 1_000;
    let mut app = app_with(config);
    press(&mut app, 'r');
    // Nobody ever answers: only the clock moves.
    let mut asked = summarize_effects(&mut app);
    let mut now_ms = 0;
    while app.phase == Phase::Running && now_ms < 60_000 {
        now_ms += 250;
        app.handle_event(AppEvent::Tick(now_ms));
        asked.extend(summarize_effects(&mut app));
    }
    // MODERATE, AGGRESSIVE and MAXIMUM each wait one deadline (plus a tick to see it
    // passed); with nothing that fits, the run fails at MAXIMUM and changes nothing.
    assert!(
        matches!(&app.phase, Phase::Failed(reason) if reason.contains("maximum") && reason.contains("deadline")),
        "{:?} at {now_ms} ms",
        app.phase
    );
    assert!(now_ms <= 3 * 1_250, "ended at {now_ms} ms");
    assert_eq!(app.messages, app.original());
    assert_eq!(asked.len(), 3, "one request per summarizing level");
    assert!(
        asked.iter().all(|r| matches!(
            app.requests.rows.get(&r.id).map(|row| &row.state),
            Some(RequestState::Failed { reason, .. }) if reason.contains("deadline")
        )),
        "every request failed at its deadline"
    );
}

#[test]
fn the_wheel_and_clicks_act_on_the_pane_under_the_pointer() {
    let mut app = app();
    let (width, height) = (110, 32);
    let area = Rect::new(0, 0, width, height);
    // Each pane's title, where the screen draws it, is inside that pane.
    let drawn = screen(&app, width, height);
    let title_at = |title: &str| {
        drawn.lines().enumerate().find_map(|(row, line)| {
            let byte = line.find(title)?;
            let column = line[..byte].chars().count();
            Some(Position::new(column as u16, row as u16))
        })
    };
    for (pane, title) in [
        (Pane::Segments, " segments · "),
        (Pane::Ladder, " ladder "),
        (Pane::Requests, " requests · "),
        (Pane::Log, " events "),
    ] {
        let at = title_at(title).unwrap_or_else(|| panic!("{title:?} drawn:\n{drawn}"));
        assert_eq!(pane_at(area, at), Some(pane), "{title:?} at {at:?}");
    }
    assert_eq!(pane_at(area, Position::new(5, 0)), None, "the header");
    assert_eq!(
        pane_at(area, Position::new(5, height - 1)),
        None,
        "the status line"
    );
    assert_eq!(
        pane_at(Rect::new(0, 0, 40, 10), Position::new(5, 5)),
        None,
        "too small to draw panes"
    );

    assert_eq!(app.focus, Pane::Segments);
    app.handle_event(AppEvent::Scroll {
        lines: 3,
        over: Some(Pane::Ladder),
    });
    assert_eq!(
        app.focus,
        Pane::Ladder,
        "the wheel scrolls the pane it is over"
    );
    app.handle_event(AppEvent::Scroll {
        lines: 3,
        over: None,
    });
    assert_eq!(
        app.focus,
        Pane::Ladder,
        "off the panes, the focused one scrolls"
    );
    app.handle_event(AppEvent::Click(Pane::Requests));
    assert_eq!(app.focus, Pane::Requests);
    press(&mut app, '?');
    app.handle_event(AppEvent::Click(Pane::Log));
    assert_eq!(
        app.focus,
        Pane::Requests,
        "clicks do not reach under an overlay"
    );
}

#[test]
fn p_pins_the_selected_segment_and_the_run_keeps_it_verbatim() {
    use super::model::RowState;
    use compactor::plan::SegmentState;
    let outcome_ids = |app: &App| -> Vec<compactor::message::MessageId> {
        let Phase::Done(outcome) = &app.phase else {
            panic!("not done: {:?}", app.phase);
        };
        outcome.messages.iter().map(|m| m.id.clone()).collect()
    };
    // Unpinned, segment 2 (messages 4..6) is summarized away.
    let mut control = app();
    press(&mut control, 'r');
    settle(&mut control, 10, &extractive);
    let old = control.conversation.messages[4].clone();
    assert!(!outcome_ids(&control).contains(&old.id));

    let mut app = app();
    press(&mut app, 'j');
    press(&mut app, 'j');
    assert_eq!(app.segments.rows[2].messages, 4..6);
    press(&mut app, 'p');
    assert_eq!(
        app.segments.rows[2].state,
        RowState::Planned(SegmentState::Pinned)
    );
    assert!(app.status.starts_with("segment 2 pinned"), "{}", app.status);
    assert!(screen(&app, 120, 40).contains("pinned"));
    press(&mut app, 'r');
    settle(&mut app, 10, &extractive);
    let Phase::Done(outcome) = &app.phase else {
        panic!("not done: {:?}", app.phase);
    };
    assert!(
        outcome
            .messages
            .iter()
            .any(|m| m.id == old.id && m.parts == old.parts)
    );
    // Pins belong to the input: not while a result is shown; after undo, p unpins.
    press(&mut app, 'p');
    assert!(
        app.status.starts_with("pins change the input"),
        "{}",
        app.status
    );
    press(&mut app, 'u');
    press(&mut app, 'p');
    assert_eq!(
        app.segments.rows[2].state,
        RowState::Planned(SegmentState::Raw)
    );
    // The system prompt stays pinned: unpinning goes back to how the input was read.
    press(&mut app, 'g');
    press(&mut app, 'p');
    press(&mut app, 'p');
    assert_eq!(
        app.segments.rows[0].state,
        RowState::Planned(SegmentState::Pinned)
    );
}

#[test]
fn v_replays_the_input_and_charts_each_call() {
    // The sample's 7,075 tokens outgrow this window partway through the run.
    let mut config = config();
    config.budget.max_context_tokens = Some(3_000);
    config.budget.output_reserve = Some(500);
    let mut app = app_with(config);
    assert!(
        app.replay.is_none(),
        "nothing is replayed before it is asked for"
    );
    press(&mut app, 'v');
    assert_eq!(app.overlay, Some(Overlay::Replay));
    let replay = app.replay.clone().expect("v replays the input");
    let calls = compactor::replay::calls(app.original()).len();
    assert!(calls > 3, "the sample makes several calls");
    let (prompts, marks) = super::view::replay::prompt_points(&replay.calls);
    assert_eq!(prompts.len(), calls, "one point per call");
    assert!(
        !marks.is_empty(),
        "the sample outgrows a 3,000-token window"
    );
    assert_eq!(
        super::view::replay::running_cost(&replay.calls).len(),
        calls
    );

    let shown = screen(&app, 110, 40);
    let t = replay.totals();
    assert!(shown.contains(" replay · v or Esc closes "), "{shown}");
    assert!(
        shown.contains(&format!(
            "{calls} calls · cost {:.2}× keeping everything",
            t.relative_cost
        )),
        "{shown}"
    );
    assert!(shown.contains("prompt tokens per call"), "{shown}");
    assert!(shown.contains("running cost"), "{shown}");
    assert!(shown.contains('•'), "compactions are marked: {shown}");
    assert!(
        shown
            .chars()
            .any(|c| ('\u{2801}'..='\u{28ff}').contains(&c)),
        "the prompt line is drawn: {shown}"
    );

    press(&mut app, 'v');
    assert_eq!(app.overlay, None, "v toggles the view");
    press(&mut app, 'v');
    assert_eq!(app.replay, Some(replay), "the replay is kept");
    key(&mut app, KeyCode::Esc);
    press(&mut app, 'u');
    assert!(
        app.replay.is_none(),
        "undo drops a replay made under other numbers"
    );

    press(&mut app, '?');
    assert!(screen(&app, 110, 32).contains("replay: prompt tokens per call"));
}

#[test]
fn the_replay_view_survives_tiny_areas() {
    let mut app = app();
    press(&mut app, 'v');
    for (w, h) in [(0, 0), (1, 1), (2, 2), (5, 3), (21, 9), (30, 10), (200, 12)] {
        let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
        super::view::replay::ReplayView(&app).render(buf.area, &mut buf);
        screen(&app, w, h);
    }
    let mut buf = Buffer::empty(Rect::new(0, 0, 30, 6));
    super::view::replay::ReplayView(&app).render(buf.area, &mut buf);
    assert!(text(&buf).contains("calls · cost"), "{}", text(&buf));
}
