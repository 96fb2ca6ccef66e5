"""The package's build backend: setuptools', once the component is in the package.

``compactor.wasm`` is the engine built from the Rust workspace around this directory
(``scripts/component.sh``). Building a wheel or an sdist where it is missing builds it
first, when ``cargo`` is on PATH and the workspace is there (a checkout of the
repository). The sdist carries the built component and the wheel is ``py3-none-any``:
one file serves every OS and CPU, and installing either needs no Rust toolchain.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any, Dict, Optional

from setuptools import build_meta
from setuptools.build_meta import (  # noqa: F401 - the hooks this backend does not change
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

HERE = Path(__file__).resolve().parent
COMPONENT = HERE / "src" / "compactor" / "compactor.wasm"
SCRIPT = HERE.parent / "scripts" / "component.sh"


def _component() -> None:
    if COMPONENT.is_file():
        return
    if SCRIPT.is_file() and shutil.which("cargo"):
        subprocess.run(["bash", str(SCRIPT)], check=True)
        return
    raise RuntimeError(
        f"{COMPONENT.name} is not in the package: build it with scripts/component.sh "
        "(cargo and rustup's wasm32-unknown-unknown target), or install the compactor wheel, "
        "which carries it"
    )


def build_wheel(
    wheel_directory: str,
    config_settings: Optional[Dict[str, Any]] = None,
    metadata_directory: Optional[str] = None,
) -> str:
    _component()
    return build_meta.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_sdist(sdist_directory: str, config_settings: Optional[Dict[str, Any]] = None) -> str:
    _component()
    return build_meta.build_sdist(sdist_directory, config_settings)


def build_editable(
    wheel_directory: str,
    config_settings: Optional[Dict[str, Any]] = None,
    metadata_directory: Optional[str] = None,
) -> str:
    _component()
    return build_meta.build_editable(wheel_directory, config_settings, metadata_directory)
