"""The component's instances: compiled once per machine, instantiated once per process.

Compiling the 2 MB component takes wasmtime most of a second, so the compiled code is kept
in a cache directory (`cache_dir`) under a name that holds the component's hash, the
wasmtime version and the CPU: a later process maps it in a millisecond. wasmtime checks
the file again as it loads it (version and settings), and a file it refuses is compiled
anew and replaced.

Every `Compactor` of a process lives in one shared instance (one per `memory_limit`): the
engine reads its vocabulary once, and a compactor is one call. A store cannot be entered
from two threads at once, so calls into one instance take turns under its lock; the
asyncio drivers never await while inside a call.

The component imports nothing, so it is instantiated with an empty linker: it can reach
no clock, file or network. A trap (a bug in the engine, or a memory limit reached) poisons
the instance: the runtime marks itself dead, the call raises ``INTERNAL``, so do later
calls on the runs and sessions that lived in it, and every compactor's next call starts
in a fresh instance.
"""

from __future__ import annotations

import collections
import hashlib
import os
import platform
import sys
import tempfile
import threading
from importlib import metadata
from pathlib import Path
from typing import Any, Dict, Optional

import wasmtime
import wasmtime.component as wc

from .errors import CompactorError

ENGINE_INTERFACE = "compactor:engine/engine@0.1.0"
WASM = Path(__file__).with_name("compactor.wasm")

_compile_lock = threading.Lock()
_compiled: Optional["tuple[wasmtime.Engine, wc.Component]"] = None
_instances_lock = threading.Lock()
_instances: Dict[Optional[int], "Runtime"] = {}


def cache_dir() -> Optional[Path]:
    """Where compiled components are kept: ``COMPACTOR_CACHE_DIR`` if set (empty: nowhere,
    compile in every process), else the user's cache directory (``$XDG_CACHE_HOME`` or
    ``~/.cache`` on Linux, ``~/Library/Caches`` on macOS, ``%LOCALAPPDATA%`` on Windows),
    in ``compactor/``."""
    given = os.environ.get("COMPACTOR_CACHE_DIR")
    if given is not None:
        return Path(given) if given else None
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
        return Path(base) / "compactor" / "cache" if base else None
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "compactor"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "compactor"


def cache_file(wasm: bytes) -> Optional[Path]:
    """The compiled form of `wasm` for this wasmtime and CPU, in `cache_dir`."""
    directory = cache_dir()
    if directory is None:
        return None
    digest = hashlib.sha256(wasm).hexdigest()[:32]
    version = metadata.version("wasmtime")
    return directory / f"compactor-{digest}-wasmtime-{version}-{platform.machine() or 'cpu'}.cwasm"


def _compile(engine: wasmtime.Engine, wasm: bytes) -> wc.Component:
    """The component, mapped from the cache when an earlier process compiled it, else
    compiled (and kept there for the next process)."""
    cached = cache_file(wasm)
    if cached is not None and cached.is_file():
        try:
            return wc.Component.deserialize_file(engine, str(cached))
        except wasmtime.WasmtimeError:
            pass  # Another wasmtime's, or damaged: compiled again below, and replaced.
    component = wc.Component(engine, wasm)
    if cached is not None:
        _keep(cached, component.serialize())
    return component


def _keep(path: Path, compiled: "bytes | bytearray") -> None:
    """Writes `compiled` to `path` whole or not at all (a process reading it meanwhile sees
    the old file or the new one); a cache that cannot be written is no error."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".compactor-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(compiled)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        pass


def component() -> "tuple[wasmtime.Engine, wc.Component]":
    """The engine and the compiled component, once per process."""
    global _compiled
    with _compile_lock:
        if _compiled is None:
            engine = wasmtime.Engine()
            _compiled = (engine, _compile(engine, WASM.read_bytes()))
        return _compiled


def shared(memory_limit: Optional[int] = None) -> "Runtime":
    """The instance every compactor with this `memory_limit` lives in, made anew after a
    trap."""
    runtime = _instances.get(memory_limit)
    if runtime is not None and runtime.alive:
        return runtime
    with _instances_lock:
        runtime = _instances.get(memory_limit)
        if runtime is None or not runtime.alive:
            runtime = _instances[memory_limit] = Runtime(memory_limit)
        return runtime


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
        # Handles whose Python owner was collected, dropped before the next call: a
        # finalizer may run at any point, inside a call too, so it never enters the store.
        # A deque: appending and popping are atomic, from any thread.
        self._released: "collections.deque[Any]" = collections.deque()
        self.alive = True

    def call(self, name: str, *args: Any) -> Any:
        """Calls the engine's function `name` (`[method]run.poll`, `count-tokens`)."""
        with self._lock:
            if self._released:
                self._drop_released()
            return self._call(name, *args)

    def _call(self, name: str, *args: Any) -> Any:
        if not self.alive:
            raise CompactorError(
                "INTERNAL",
                "the engine instance this lived in trapped earlier and was discarded",
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
        """Drops a resource handle (a run, a session) now, if the instance still lives."""
        if self.alive and handle is not None:
            with self._lock:
                self._drop(handle)

    def release(self, handle: Any) -> None:
        """Drops `handle` before the next call: for finalizers, which must not enter the
        store (appending to a list is atomic)."""
        if self.alive and handle is not None:
            self._released.append(handle)

    def _drop_released(self) -> None:
        while self._released:
            self._drop(self._released.popleft())

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
