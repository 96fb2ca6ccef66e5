//! Errors as a host sees them: the failure every host shares ([`compactor::wire`]), with
//! the WIT world's names for the inputs it points at. Details cross as a JSON object.

use compactor::wire;

pub use compactor::wire::Code;

/// The WIT world's names: config fields in kebab case (`config.max-context-tokens`), the
/// pins as the `pin` argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wit {}

impl wire::Host for Wit {
    const PIN: &'static str = "pin";
    const SPELLING: wire::Spelling = wire::Spelling::Kebab;
}

/// A failure on its way to the host.
pub type Failure = wire::Failure<Wit>;
