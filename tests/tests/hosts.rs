//! What every host declares is the host layer's tables (`compactor::wire`): the npm
//! package's TypeScript for the config options and the message formats
//! (`wasm/js/options.d.ts`) and the WIT `config` record (`component/wit/compactor.wit`)
//! are written from them. A changed table fails these tests until the files are written
//! again: `COMPACTOR_REGENERATE=1 cargo test -p compactor-tests --test hosts`.

use std::fs;
use std::path::{Path, PathBuf};

use compactor::wire::{names, options};

fn workspace(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(path)
}

/// Compares `file` with `expected`, or writes it when asked to.
fn holds(file: &Path, expected: &str) {
    let found = fs::read_to_string(file).unwrap_or_default();
    if found == expected {
        return;
    }
    if std::env::var_os("COMPACTOR_REGENERATE").is_some() {
        fs::write(file, expected).expect("written");
        return;
    }
    panic!(
        "{} is not what the host layer's tables write: run \
         `COMPACTOR_REGENERATE=1 cargo test -p compactor-tests --test hosts`\n--- expected:\n{expected}",
        file.display()
    );
}

#[test]
fn the_npm_typings_of_the_options_and_formats_are_the_tables() {
    let expected = format!(
        "// Written from the host layer's tables (compactor::wire): do not edit.\n{}{}",
        names::typescript(),
        options::typescript()
    );
    holds(&workspace("wasm/js/options.d.ts"), &expected);
}

#[test]
fn the_wit_config_record_is_the_tables() {
    let file = workspace("component/wit/compactor.wit");
    let text = fs::read_to_string(&file).expect("the WIT world");
    let start = text
        .find("    /// The numbers and the behaviour of a compactor")
        .expect("the config record's doc");
    let record = start + text[start..].find("record config {").expect("the record");
    let end = record + text[record..].find("\n    }\n").expect("its end") + "\n    }\n".len();
    let expected = format!(
        "{}{}{}",
        &text[..start],
        options::wit_record(),
        &text[end..]
    );
    holds(&file, &expected);
}
