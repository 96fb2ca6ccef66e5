"""One instance of the component: a wasmtime store and the engine's functions by name.

The component imports nothing, so it is instantiated with an empty linker: it can reach
no clock, file or network. A trap (a bug in the engine, or a memory limit reached) poisons
the instance; the runtime marks itself dead, and its owner builds a new one.
"""

from __future__ import annotations

import threading
from importlib import resources
from typing import Any, Dict, Optional

import wasmtime
import wasmtime.component as wc

from .errors import CompactorError

ENGINE_INTERFACE = "compactor:engine/engine@0.1.0"

_lock = threading.Lock()
_shared: Optional["tuple[wasmtime.Engine, wc.Component]"] = None


def component() -> "tuple[wasmtime.Engine, wc.Component]":
    """The engine and the compiled component, compiled once per process."""
    global _shared
    with _lock:
        if _shared is None:
            engine = wasmtime.Engine()
            data = resources.files(__package__).joinpath("compactor.wasm").read_bytes()
            _shared = (engine, wc.Component(engine, data))
        return _shared


class Runtime:
    """A store holding one instance of the component."""

    def __init__(self, memory_limit: Optional[int] = None) -> None:
        engine, comp = component()
        self.store = wasmtime.Store(engine)
        if memory_limit is not None:
            self.store.set_limits(memory_size=memory_limit)
        self.instance = wc.Linker(engine).instantiate(self.store, comp)
        self._interface = self.instance.get_export_index(self.store, ENGINE_INTERFACE)
        self._funcs: Dict[str, wc.Func] = {}
        # A store is not safe to enter from two threads at once: calls take turns.
        self._lock = threading.RLock()
        self.alive = True

    def call(self, name: str, *args: Any) -> Any:
        """Calls the engine's function `name` (`[method]run.poll`, `count-tokens`)."""
        with self._lock:
            return self._call(name, *args)

    def _call(self, name: str, *args: Any) -> Any:
        if not self.alive:
            raise CompactorError(
                "INTERNAL", "this engine instance trapped earlier and was discarded"
            )
        func = self._funcs.get(name)
        if func is None:
            index = self.instance.get_export_index(self.store, name, self._interface)
            found = None if index is None else self.instance.get_func(self.store, index)
            if found is None:
                raise CompactorError("INTERNAL", f"the component has no function {name}")
            func = self._funcs[name] = found
        try:
            return func(self.store, *args)
        except (wasmtime.Trap, wasmtime.WasmtimeError) as trap:
            self.alive = False
            raise CompactorError(
                "INTERNAL",
                f"the engine trapped ({str(trap).splitlines()[0]}); the instance was "
                "discarded and the next call starts a fresh one",
            ) from trap

    def drop(self, handle: Any) -> None:
        """Drops a resource handle (a run, a session) if the instance still lives."""
        if self.alive and handle is not None:
            with self._lock:
                self._drop(handle)

    def _drop(self, handle: Any) -> None:
        if self.alive:
            try:
                handle.drop(self.store)
            except (wasmtime.Trap, wasmtime.WasmtimeError):
                self.alive = False
            except ValueError:
                pass  # The store was closed (interpreter shutdown): nothing left to free.


def checked(value: Any) -> Any:
    """A WIT `result`'s value, or the `CompactorError` its `error` record describes."""
    if isinstance(value, wc.Record) and hasattr(value, "code"):
        raise CompactorError.from_record(value)
    return value
