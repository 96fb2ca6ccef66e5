//! The core is built in floors (see the crate docs): a module imports only from its own
//! floor or below; the wasm wrapper and the command line keep the same rule. This test reads every source file, finds each `crate::` path in its
//! code (`use` lines and paths written out), and fails on one that reaches a floor above
//! the file's own. Comments are skipped: a doc link up the house is not an import.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// The floors, lowest first: every top-level module of the core and its floor. A module
/// missing here fails the test, so a new one must say where it stands.
const FLOORS: &[(&str, u8)] = &[
    // Ground: plain data.
    ("message", 0),
    // What of a conversation the user wrote: read off the messages alone.
    ("task", 0),
    ("level", 0),
    ("hash", 0),
    ("summary", 0),
    ("catalog", 0),
    ("budget", 0),
    ("config", 0),
    ("policy", 0),
    // Token counting.
    ("tokens", 1),
    // Provider formats.
    ("format", 2),
    // Reading a conversation: segmentation, selection, overflow, the pieces a plan and its
    // application are made of.
    ("pin", 3),
    ("facts", 3),
    ("observation", 3),
    ("trail", 3),
    ("standing", 3),
    ("receipt", 3),
    ("retention", 3),
    ("prompt", 3),
    ("segment", 3),
    ("select", 3),
    ("overflow", 3),
    ("prune", 3),
    ("validate", 3),
    ("plan", 3),
    ("extractive", 3),
    // Planning.
    ("ladder", 4),
    // The run.
    ("engine", 5),
    // Drivers, sessions, write-back.
    ("driver", 6),
    ("rebase", 6),
    ("writeback", 6),
    ("live", 6),
    ("replay", 6),
    // What crosses a host boundary: errors and views over everything below.
    ("wire", 7),
];

/// The floors of the npm package's wrapper (`wasm/src`): the crate root holds the exported
/// class and imports from all; no module imports from it.
const WASM_FLOORS: &[(&str, u8)] = &[
    ("error", 0),
    ("fields", 1),
    ("convert", 2),
    ("config", 3),
    ("loaded", 3),
    ("callbacks", 3),
    ("run", 4),
    ("extractive", 4),
    ("types", 4),
    ("store", 5),
    ("live", 5),
];

/// The floors of the command line (`tui/src`): `main.rs` on top.
const TUI_FLOORS: &[(&str, u8)] = &[
    ("failure", 0),
    ("clock", 0),
    ("words", 0),
    ("summarizer", 1),
    ("input", 2),
    ("plan", 3),
    ("compact", 3),
    ("replay", 3),
    ("inspect", 4),
];

/// One import from a floor above: the file, the module it reaches, both floors.
#[derive(Debug, PartialEq)]
struct Upward {
    file: String,
    imports: String,
    from_floor: u8,
    to_floor: u8,
}

/// Every `.rs` file under `dir`, sorted.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The code of a file without its comments: comment lines dropped, a trailing `// …`
/// cut off.
fn code(text: &str) -> String {
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .map(|line| match line.find(" // ") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn ident(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The top-level modules each `crate::` path in `code` names: `crate::a::B` gives `a`,
/// `crate::{a::B, c}` gives `a` and `c`.
fn reached(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut item = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                if depth == 0 || (depth == 1 && c == ',') {
                    let name = ident(item.trim());
                    if !name.is_empty() && name != "self" {
                        out.push(name.to_string());
                    }
                    item.clear();
                    if depth == 0 {
                        break;
                    }
                } else {
                    item.push(c);
                }
            }
        } else {
            let name = ident(rest);
            if !name.is_empty() {
                out.push(name.to_string());
            }
        }
    }
    out
}

/// The top-level module a file belongs to: `engine/run.rs` and `engine/mod.rs` to
/// `engine`, `tokens.rs` to `tokens`; `None` for the crate root.
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let relative = file.strip_prefix(src).ok()?;
    let first = relative.components().next()?.as_os_str().to_str()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "lib" && name != "main").then(|| name.to_string())
}

/// Every import in `src` that reaches a floor above its file's, and every module the
/// table does not place.
fn check(src: &Path, floors: &[(&str, u8)]) -> (Vec<Upward>, Vec<String>) {
    let floor: BTreeMap<&str, u8> = floors.iter().copied().collect();
    let mut upward = Vec::new();
    let mut unplaced = Vec::new();
    for file in sources(src) {
        let Some(module) = module_of(src, &file) else {
            continue;
        };
        let Some(&own) = floor.get(module.as_str()) else {
            unplaced.push(module);
            continue;
        };
        let text = fs::read_to_string(&file).unwrap_or_default();
        for target in reached(&code(&text)) {
            match floor.get(target.as_str()) {
                Some(&to) if to > own => upward.push(Upward {
                    file: file
                        .strip_prefix(src)
                        .unwrap_or(&file)
                        .display()
                        .to_string(),
                    imports: target,
                    from_floor: own,
                    to_floor: to,
                }),
                Some(_) => {}
                // An item of the crate root (a macro, a re-export): the top floor.
                None => upward.push(Upward {
                    file: file
                        .strip_prefix(src)
                        .unwrap_or(&file)
                        .display()
                        .to_string(),
                    imports: target,
                    from_floor: own,
                    to_floor: u8::MAX,
                }),
            }
        }
    }
    unplaced.sort();
    unplaced.dedup();
    (upward, unplaced)
}

#[test]
fn no_module_imports_from_a_floor_above_its_own() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (upward, unplaced) = check(&src, FLOORS);
    assert!(
        unplaced.is_empty(),
        "modules with no floor in the table: {unplaced:?}"
    );
    assert!(upward.is_empty(), "imports from a floor above: {upward:#?}");
}

/// The wrapper and the command line beside the core, by the same rule. They are read from
/// the workspace when it is there (not in a packaged core crate).
#[test]
fn neither_the_wrapper_nor_the_command_line_imports_upward() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for (dir, floors) in [("wasm/src", WASM_FLOORS), ("tui/src", TUI_FLOORS)] {
        let src = workspace.join(dir);
        let (upward, unplaced) = check(&src, floors);
        assert!(
            unplaced.is_empty(),
            "{dir}: modules with no floor: {unplaced:?}"
        );
        assert!(
            upward.is_empty(),
            "{dir}: imports from a floor above: {upward:#?}"
        );
    }
}

#[test]
fn the_parser_finds_grouped_and_written_out_paths() {
    let text = "use crate::{ladder::Level, message::{self, Message}};\n\
                // use crate::engine::Run;\n\
                let x = crate::prune::shrink(); // crate::driver\n\
                $crate::live::x; compactor_crate::y;";
    assert_eq!(reached(&code(text)), ["ladder", "message", "prune"]);
}

#[test]
fn an_upward_import_is_caught() -> std::io::Result<()> {
    let dir = std::env::temp_dir().join(format!("compactor-floors-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("ladder"))?;
    fs::write(dir.join("message.rs"), "use crate::ladder::Level;\n")?;
    fs::write(dir.join("ladder/mod.rs"), "use crate::message::Message;\n")?;
    fs::write(dir.join("extra.rs"), "")?;
    let (upward, unplaced) = check(&dir, FLOORS);
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(
        upward,
        [Upward {
            file: "message.rs".into(),
            imports: "ladder".into(),
            from_floor: 0,
            to_floor: 4,
        }]
    );
    assert_eq!(unplaced, ["extra"]);
    Ok(())
}
