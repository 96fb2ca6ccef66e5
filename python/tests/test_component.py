"""The component itself: what it imports, what it exports."""

from importlib import resources

import wasmtime
import wasmtime.component as wc


def test_component_imports_nothing() -> None:
    # No clock, no files, no random numbers, not even stdio: the engine is pure, and time
    # comes in as arguments.
    engine = wasmtime.Engine()
    data = resources.files("compactor").joinpath("compactor.wasm").read_bytes()
    kind = wc.Component(engine, data).type
    assert dict(kind.imports(engine)) == {}
    assert sorted(kind.exports(engine)) == [
        "compactor:engine/engine@0.1.0",
        "compactor:engine/types@0.1.0",
    ]
