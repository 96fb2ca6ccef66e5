//! `new Compactor(config)`: the config object read, option by option, into the core's
//! `CompactionConfig`. The options are the host layer's table (`compactor::wire::options`),
//! and so is their TypeScript declaration (`js/options.d.ts`, written from the table and
//! held equal to it by a test). The reader is hand-written, not serde's (serde would cost
//! the lite package its size budget, see `fields`).

use compactor::engine::CompactionConfig;
use compactor::wire::{self, Given, Host, Kind, OPTIONS};
use wasm_bindgen::prelude::*;

use crate::error::{Failure, Js};
use crate::fields::Fields;

#[wasm_bindgen(typescript_custom_section)]
const OPTIONS_TS: &'static str = include_str!("../js/options.d.ts");

/// The config object read into the core's config.
pub(crate) fn read(config: &JsValue) -> Result<CompactionConfig, Failure> {
    let known: Vec<String> = OPTIONS.iter().map(|o| Js::config_field(o.name)).collect();
    let fields = Fields::new(config, "config", &known)?;
    let config = wire::read_config::<Js>(|opt, name| {
        let value = fields.value(name).map_err(Failure::into_wire)?;
        let given = match (value, opt.kind) {
            (Some(off), _) if off.is_null() && opt.off => Ok(Some(Given::Off)),
            (value, Kind::Text) => fields.string_of(name, value, "a string").map(text),
            (value, Kind::Encoding) => fields.string_of(name, value, "an encoding name").map(text),
            (value, Kind::Integer { max }) => fields
                .integer_of(name, value, max)
                .map(|v| v.map(Given::Integer)),
            (value, Kind::Number) => fields.number_of(name, value).map(|v| v.map(Given::Number)),
            (value, Kind::Bool) => fields.bool_of(name, value).map(|v| v.map(Given::Bool)),
        };
        given.map_err(Failure::into_wire)
    })?;
    if config.extractive_fallback && !cfg!(feature = "extractive") {
        return Err(Failure::invalid(
            "config.extractiveFallback",
            "the lite package has no built-in summarizer: use @compactor-rs/compactor, \
             or catch CIRCUIT_OPEN and call resetCircuit with a summarizer of your own",
        ));
    }
    Ok(config)
}

fn text(value: Option<String>) -> Option<Given> {
    value.map(Given::Text)
}
