//! The wrapper's tests in Node: `wasm-pack test --node -- --test node`.
#![cfg(target_arch = "wasm32")]

mod common;
