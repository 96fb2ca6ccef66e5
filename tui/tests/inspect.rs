//! The real `compactor inspect` in a pseudo-terminal (tmux): keys in, the screen out.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use compactor_tests::corpus_dir;

/// A tmux session running one command, killed when dropped.
struct Tmux {
    name: String,
}

impl Tmux {
    /// `label` keeps the sessions of tests running side by side apart.
    fn start(label: &str, command: &str, width: u16, height: u16) -> Self {
        let name = format!("compactor-inspect-{label}-{}", std::process::id());
        let status = Command::new("tmux")
            .args(["new-session", "-d", "-s", &name, "-x"])
            .arg(width.to_string())
            .arg("-y")
            .arg(height.to_string())
            .arg(command)
            .status()
            .expect("tmux runs");
        assert!(status.success(), "tmux new-session failed");
        Self { name }
    }

    fn keys(&self, keys: &[&str]) {
        let status = Command::new("tmux")
            .args(["send-keys", "-t", &self.name])
            .args(keys)
            .status()
            .expect("tmux send-keys");
        assert!(status.success());
    }

    fn screen(&self) -> String {
        let output = Command::new("tmux")
            .args(["capture-pane", "-p", "-t", &self.name])
            .output()
            .expect("tmux capture-pane");
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// Waits until the screen shows `text`, or fails with the last screen.
    /// The screen once it shows `text` and has settled: tmux may be caught halfway through
    /// drawing a frame, so a screen counts only when the next capture is the same.
    fn wait_for(&self, text: &str) -> String {
        self.wait_until(&format!("{text:?} on the screen"), |screen| {
            screen.contains(text)
        })
    }

    /// The settled screen once `text` has left it.
    fn wait_for_gone(&self, text: &str) -> String {
        self.wait_until(&format!("{text:?} gone"), |screen| !screen.contains(text))
    }

    fn wait_until(&self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        let mut previous = String::new();
        loop {
            let screen = self.screen();
            if done(&screen) && screen == previous {
                return screen;
            }
            previous = screen.clone();
            assert!(Instant::now() < deadline, "no {what}:\n{screen}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        // Already gone after `q`: the error is expected and not worth printing.
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.name])
            .output();
    }
}

fn have_tmux() -> bool {
    let found = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    // CI installs tmux (scripts/setup.sh): there its absence is a failure, not a skip.
    assert!(found || std::env::var_os("CI").is_none(), "tmux is missing");
    found
}

#[test]
fn inspect_steps_through_the_ladder_watches_requests_and_exports() {
    if !have_tmux() {
        eprintln!("tmux not installed: skipping the terminal test");
        return;
    }
    // The corpus is read-only: work on a copy, so the export lands beside it.
    let dir = std::env::temp_dir().join(format!("compactor-inspect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let input = dir.join("ctf-rock.json");
    std::fs::copy(corpus_dir().join("ctf-rock.json"), &input).expect("copy corpus file");
    let exported = dir.join("ctf-rock.compacted.json");
    let _ = std::fs::remove_file(&exported);

    let command = format!(
        "{} inspect {} --lenient --max-context 8000 --output-reserve 1000 --latency 300",
        env!("CARGO_BIN_EXE_compactor"),
        quote(&input)
    );
    let tmux = Tmux::start("steps", &command, 120, 36);
    step_through_the_ladder(&tmux);
    open_and_close_help(&tmux);
    click_a_request_open(&tmux);
    export(&tmux, &exported);
    resize(&tmux);
    quit(&tmux);
    let _ = std::fs::remove_dir_all(&dir);
}

/// One level per Space: LIGHT, a pause before MODERATE, then MODERATE's requests fly
/// (300 ms each) and answer.
fn step_through_the_ladder(tmux: &Tmux) {
    let ready = tmux.wait_for("step · ready");
    assert!(ready.contains("──── tail ────"), "{ready}");
    assert!(ready.contains("T trigger 6,440"), "{ready}");

    tmux.keys(&["Space"]);
    let paused = tmux.wait_for("paused after light");
    assert!(paused.contains("left light"), "{paused}");
    assert!(!paused.contains("entered moderate"), "{paused}");

    tmux.keys(&["Space"]);
    let flying = tmux.wait_for("in flight · ");
    assert!(flying.contains("entered moderate"), "{flying}");
    assert!(flying.contains("running, "), "requests in flight: {flying}");
    let done = tmux.wait_for("step · done");
    assert!(done.contains("request #1 answered"), "{done}");
    assert!(done.contains("summarized"), "{done}");
    assert!(done.contains("compacted, target met"), "{done}");
}

/// Help opens and Esc closes it without quitting.
fn open_and_close_help(tmux: &Tmux) {
    tmux.keys(&["?"]);
    tmux.wait_for("keys · Esc closes");
    // A key sent right after Esc would reach the program as Alt+key: wait for the close.
    tmux.keys(&["Escape"]);
    tmux.wait_for_gone("keys · Esc closes");
}

/// The mouse (SGR reports, as terminals send them): a click on the requests pane focuses
/// it, so Enter opens a request instead of a segment.
fn click_a_request_open(tmux: &Tmux) {
    let screen = tmux.screen();
    let (row, column) = screen
        .lines()
        .enumerate()
        .find_map(|(row, line)| {
            let byte = line.find(" requests · ")?;
            Some((row + 1, line[..byte].chars().count() + 2))
        })
        .unwrap_or_else(|| panic!("the requests pane: {screen}"));
    tmux.keys(&[
        "-l",
        &format!("\x1b[<0;{column};{row}M\x1b[<0;{column};{row}m"),
    ]);
    tmux.keys(&["Enter"]);
    tmux.wait_for("request #1 · ↑↓ scroll");
    tmux.keys(&["Escape"]);
    tmux.wait_for_gone("↑↓ scroll");
}

/// `e` writes the result beside the input, in a form `compactor plan` reads back.
fn export(tmux: &Tmux, exported: &Path) {
    tmux.keys(&["e"]);
    let status = tmux.wait_for("exported to");
    assert!(status.contains("ctf-rock.compacted.json"), "{status}");
    let text = std::fs::read_to_string(exported).expect("the export was written");
    let json: serde_json::Value = serde_json::from_str(&text).expect("the export is JSON");
    let messages = json
        .as_array()
        .expect("an array of messages, like the input");
    assert!(
        messages.len() < 25,
        "compacted: {} messages",
        messages.len()
    );
    let output = Command::new(env!("CARGO_BIN_EXE_compactor"))
        .args(["plan", "--lenient"])
        .arg(exported)
        .output()
        .expect("plan runs");
    assert!(
        output.status.success(),
        "the export parses as a conversation: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A terminal too small says so; resizing back redraws the panes.
fn resize(tmux: &Tmux) {
    let resize = |width: &str, height: &str| {
        Command::new("tmux")
            .args(["resize-window", "-t", &tmux.name, "-x", width, "-y", height])
            .status()
            .expect("resize");
    };
    resize("40", "10");
    tmux.wait_for("too small");
    resize("120", "36");
    tmux.wait_for("step · done");
}

/// `q` ends the program.
fn quit(tmux: &Tmux) {
    tmux.keys(&["q"]);
    let deadline = Instant::now() + Duration::from_secs(10);
    while Command::new("tmux")
        .args(["has-session", "-t", &tmux.name])
        .output()
        .is_ok_and(|o| o.status.success())
    {
        assert!(Instant::now() < deadline, "q did not quit");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_summarizer_that_never_answers_cannot_hold_the_inspector() {
    if !have_tmux() {
        eprintln!("tmux not installed: skipping the terminal test");
        return;
    }
    // The bundled sample: LIGHT leaves it over the target, so every later level asks the
    // summarizer, which never answers; each request fails at its one-second deadline.
    let command = format!(
        "{} inspect --max-context 8000 --output-reserve 1000 --target 0.3 --hang-every 1 --request-timeout 1 --run",
        env!("CARGO_BIN_EXE_compactor"),
    );
    let started = Instant::now();
    let tmux = Tmux::start("hangs", &command, 120, 36);
    let done = tmux.wait_for("run · done");
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "{:?}",
        started.elapsed()
    );
    assert!(done.contains("hang every 1"), "{done}");
    assert!(done.contains("deadline exceeded"), "{done}");
    // Three levels gave up on the summarizer; LIGHT's clearings, held back for them, are
    // the best that fits.
    assert!(
        done.contains("target missed: 7,075 → 4,349 tokens"),
        "{done}"
    );
    quit(&tmux);
}

fn quote(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}
