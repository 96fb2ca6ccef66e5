//! The Gemini adapter: parse → write → parse gives the same messages.
#![no_main]

use compactor::format::Format;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| compactor_fuzz::round_trip(Format::Gemini, data));
