//! The core is built in floors (see the crate docs): a module imports only from its own
//! floor or below; the wasm wrapper and the command line keep the same rule. This test reads every source file, finds each `crate::` path in its
//! code (`use` lines and paths written out), and fails on one that reaches a floor above
//! the file's own. Comments are skipped: a doc link up the house is not an import.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// The floors, lowest first, each named as the crate docs' floors table names it (a test
/// holds the two equal): every top-level module of the core and its floor. A module
/// missing here fails the test, so a new one must say where it stands.
const FLOORS: &[(&str, &[&str])] = &[
    (
        "ground: plain data",
        &[
            "message", "task", "level", "hash", "case", "summary", "catalog", "budget", "config",
            "policy", "sort",
        ],
    ),
    ("counting", &["tokens"]),
    ("formats", &["format"]),
    (
        "knowing facts",
        &[
            "facts",
            "action",
            "standing",
            "trail",
            "retention",
            "receipt",
            "prompt",
            "extractive",
        ],
    ),
    (
        "reading a conversation's shape",
        &[
            "pin",
            "segment",
            "select",
            "overflow",
            "observation",
            "prune",
            "validate",
            "plan",
        ],
    ),
    ("planning", &["ladder"]),
    ("the run", &["engine"]),
    (
        "drivers",
        &["driver", "rebase", "writeback", "live", "replay"],
    ),
    ("host boundary", &["wire"]),
];

/// Each module of `floors` with its floor's number.
fn numbered(floors: &[(&str, &[&'static str])]) -> Vec<(&'static str, u8)> {
    floors
        .iter()
        .zip(0u8..)
        .flat_map(|((_, modules), floor)| modules.iter().map(move |&m| (m, floor)))
        .collect()
}

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
    let (upward, unplaced) = check(&src, &numbered(FLOORS));
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
    let (upward, unplaced) = check(&dir, &numbered(FLOORS));
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(
        upward,
        [Upward {
            file: "message.rs".into(),
            imports: "ladder".into(),
            from_floor: 0,
            to_floor: 5,
        }]
    );
    assert_eq!(unplaced, ["extra"]);
    Ok(())
}

/// A module of a crate: its path from the crate root (`["inspect", "model"]`).
type Module = Vec<String>;

/// The module a file is: `inspect/model.rs` is `inspect::model`, `engine/mod.rs` is
/// `engine`, the crate root is the empty path.
fn module_path(src: &Path, file: &Path) -> Module {
    let relative = file.strip_prefix(src).unwrap_or(file);
    let mut parts: Module = relative
        .components()
        .filter_map(|c| c.as_os_str().to_str())
        .map(|c| c.strip_suffix(".rs").unwrap_or(c).to_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// A file's code before its inline test module (`#[cfg(test)] mod tests { … }`, which
/// reaches into its parent by `super::` as tests do).
fn without_inline_tests(code: &str) -> &str {
    let mut at = 0;
    let mut lines = code.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]"
            && lines.peek().is_some_and(|next| {
                next.trim_start().starts_with("mod ") && next.trim_end().ends_with('{')
            })
        {
            return &code[..at];
        }
        at += line.len();
    }
    code
}

/// The paths a file's code names from the crate root: `crate::a::b`, and `super::`,
/// `self::` paths made absolute from `module`. Grouped imports give one path each.
fn named_paths(code: &str, module: &Module) -> Vec<Module> {
    let mut out = Vec::new();
    for (start, base) in [("crate::", 0usize), ("super::", 1), ("self::", 2)] {
        for (at, _) in code.match_indices(start) {
            let before = code[..at].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == ':') {
                continue;
            }
            let mut prefix: Module = match base {
                0 => Vec::new(),
                1 => module[..module.len().saturating_sub(1)].to_vec(),
                _ => module.clone(),
            };
            let mut rest = &code[at + start.len()..];
            // `super::super::x`
            while let Some(more) = rest.strip_prefix("super::") {
                prefix.pop();
                rest = more;
            }
            for tail in expand(rest) {
                let mut path = prefix.clone();
                path.extend(tail);
                out.push(path);
            }
        }
    }
    out
}

/// The paths a `use` tree starting at `text` names: `a::b::C` is `[a, b, C]`,
/// `a::{b::C, d}` is `[a, b, C]` and `[a, d]`.
fn expand(text: &str) -> Vec<Module> {
    let mut path = Vec::new();
    let mut rest = text;
    loop {
        let name = ident(rest);
        if name.is_empty() {
            break;
        }
        path.push(name.to_owned());
        rest = &rest[name.len()..];
        match rest.strip_prefix("::") {
            Some(more) => rest = more,
            None => return vec![path],
        }
    }
    let Some(group) = rest.strip_prefix('{') else {
        return vec![path];
    };
    let mut out = Vec::new();
    let mut depth = 1;
    let mut item_start = 0;
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        if depth == 0 || (depth == 1 && c == ',') {
            let item = group[item_start..i].trim();
            if item == "self" {
                out.push(path.clone());
            } else if !item.is_empty() {
                for tail in expand(item) {
                    let mut full = path.clone();
                    full.extend(tail);
                    out.push(full);
                }
            }
            item_start = i + 1;
            if depth == 0 {
                break;
            }
        }
    }
    out
}

/// Every import between two modules of the crate at `src` neither of which holds the
/// other (a module and the modules inside it are one unit), each to the innermost module
/// the path names.
fn imports(src: &Path) -> BTreeMap<Module, std::collections::BTreeSet<Module>> {
    let files: Vec<(Module, PathBuf)> = sources(src)
        .into_iter()
        .map(|file| (module_path(src, &file), file))
        .collect();
    let known: std::collections::BTreeSet<Module> = files.iter().map(|(m, _)| m.clone()).collect();
    let mut graph: BTreeMap<Module, std::collections::BTreeSet<Module>> = BTreeMap::new();
    for (module, file) in &files {
        let text = fs::read_to_string(file).unwrap_or_default();
        let code = code(&text);
        for path in named_paths(without_inline_tests(&code), module) {
            let Some(target) = (0..=path.len())
                .rev()
                .map(|n| path[..n].to_vec())
                .find(|prefix| known.contains(prefix))
            else {
                continue;
            };
            if target.starts_with(module) || module.starts_with(&target) {
                continue;
            }
            graph.entry(module.clone()).or_default().insert(target);
        }
        graph.entry(module.clone()).or_default();
    }
    graph
}

/// The import cycles of a graph: its strongly connected components of more than one
/// module (Tarjan's algorithm), each sorted.
fn cycles(graph: &BTreeMap<Module, std::collections::BTreeSet<Module>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        graph: &'a BTreeMap<Module, std::collections::BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on_stack: std::collections::BTreeSet<&'a Module>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, module: &'a Module) {
            let n = self.index.len();
            self.index.insert(module, n);
            self.low.insert(module, n);
            self.stack.push(module);
            self.on_stack.insert(module);
            for next in self.graph.get(module).into_iter().flatten() {
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[module].min(self.low[next]);
                    self.low.insert(module, low);
                } else if self.on_stack.contains(next) {
                    let low = self.low[module].min(self.index[next]);
                    self.low.insert(module, low);
                }
            }
            if self.low[module] == self.index[module] {
                let mut component = Vec::new();
                while let Some(top) = self.stack.pop() {
                    self.on_stack.remove(top);
                    component.push(top.join("::"));
                    if top == module {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: std::collections::BTreeSet::new(),
        found: Vec::new(),
    };
    for module in graph.keys() {
        if !walk.index.contains_key(module) {
            walk.visit(module);
        }
    }
    walk.found
}

/// The crates whose modules must not import each other in a loop, from the workspace.
const CRATES: [&str; 4] = ["core/src", "wasm/src", "component/src", "tui/src"];

#[test]
fn no_module_of_any_crate_imports_in_a_loop() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let found: Vec<(&str, Vec<Vec<String>>)> = CRATES
        .into_iter()
        .filter(|dir| workspace.join(dir).exists())
        .map(|dir| (dir, cycles(&imports(&workspace.join(dir)))))
        .filter(|(_, found)| !found.is_empty())
        .collect();
    assert!(
        found.is_empty(),
        "modules that import each other: {found:#?}"
    );
}

#[test]
fn a_loop_between_sibling_modules_is_caught() -> std::io::Result<()> {
    let dir = std::env::temp_dir().join(format!("compactor-loops-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("inspect"))?;
    fs::write(
        dir.join("inspect/mod.rs"),
        "mod model;\nmod numbers;\nuse model::App;\n",
    )?;
    fs::write(
        dir.join("inspect/model.rs"),
        "use super::{numbers::Gauge, Shared};\n",
    )?;
    fs::write(
        dir.join("inspect/numbers.rs"),
        "use crate::inspect::model::App;\n#[cfg(test)]\nmod tests {\n    use super::super::other::X;\n}\n",
    )?;
    fs::write(dir.join("plain.rs"), "use crate::inspect::Shared;\n")?;
    let graph = imports(&dir);
    let found = cycles(&graph);
    let _ = fs::remove_dir_all(&dir);
    assert_eq!(found, [["inspect::model", "inspect::numbers"]]);
    // A module's own parent or children are not a loop; the inline test module is left out.
    let numbers = ["inspect".to_owned(), "numbers".to_owned()].to_vec();
    assert_eq!(graph[&numbers].len(), 1);
    Ok(())
}

/// The floors table of the crate docs (`src/lib.rs`): each row's floor and its modules, as
/// their doc links name them (`[`format`](mod@format)` is `format`).
fn documented(lib: &str) -> Vec<(String, Vec<String>)> {
    let mut rows = Vec::new();
    let mut in_table = false;
    for line in lib.lines() {
        let Some(row) = line.strip_prefix("//! ") else {
            continue;
        };
        if row.starts_with("| floor |") {
            in_table = true;
            continue;
        }
        if !in_table || row.starts_with("|---") {
            continue;
        }
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let [_, floor, modules, _] = cells.as_slice() else {
            break;
        };
        let names = modules
            .split(", ")
            .map(|link| {
                // A private module is named without a link: `` `case` ``.
                link.trim_start_matches('[')
                    .trim_start_matches('`')
                    .split('`')
                    .next()
                    .unwrap_or_default()
                    .to_owned()
            })
            .collect();
        rows.push(((*floor).to_owned(), names));
    }
    rows
}

#[test]
fn the_docs_floors_table_is_the_tests() -> std::io::Result<()> {
    let lib = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))?;
    let expected: Vec<(String, Vec<String>)> = FLOORS
        .iter()
        .map(|(floor, modules)| {
            let names = modules.iter().map(|m| (*m).to_owned()).collect();
            ((*floor).to_owned(), names)
        })
        .collect();
    assert_eq!(documented(&lib), expected, "src/lib.rs's floors table");
    Ok(())
}
