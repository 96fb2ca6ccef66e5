#!/usr/bin/env python3
"""Reads and rewrites wasm modules' sections (no dependencies).

    wasm_sections.py imports MODULE      fail when MODULE imports anything from its host
    wasm_sections.py strip MODULE        drop the debug-only custom sections (`name`,
                                         `producers`) in place: they weigh about a quarter
                                         of a gzipped package and no runtime reads them
"""
import sys

DEBUG_SECTIONS = {"name", "producers"}


def leb128(data, pos):
    result = shift = 0
    while True:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return result, pos


def name(data, pos):
    length, pos = leb128(data, pos)
    return data[pos:pos + length].decode("utf-8", "replace"), pos + length


def sections(data):
    """Yields (id, custom name or None, start, end) for each section, start at its id."""
    if data[:4] != b"\0asm":
        raise SystemExit("not a wasm module")
    pos = 8
    while pos < len(data):
        start, section = pos, data[pos]
        size, body = leb128(data, pos + 1)
        custom = name(data, body)[0] if section == 0 else None
        yield section, custom, start, body + size, body
        pos = body + size


def imports(data):
    found = []
    for section, _, _, _, body in sections(data):
        if section != 2:
            continue
        count, p = leb128(data, body)
        for _ in range(count):
            module, p = name(data, p)
            field, p = name(data, p)
            kind = data[p]
            found.append(f"{module}.{field} (kind {kind})")
            p = skip_desc(data, p + 1, kind)
    return found


def skip_desc(data, pos, kind):
    if kind == 0:  # function: type index
        return leb128(data, pos)[1]
    if kind == 1:  # table: reftype + limits
        return skip_limits(data, pos + 1)
    if kind == 2:  # memory: limits
        return skip_limits(data, pos)
    if kind == 3:  # global: valtype + mutability
        return pos + 2
    return leb128(data, pos)[1]  # tag


def skip_limits(data, pos):
    flags, pos = data[pos], pos + 1
    pos = leb128(data, pos)[1]
    if flags & 1:
        pos = leb128(data, pos)[1]
    return pos


def strip(data):
    kept = [data[:8]]
    for _, custom, start, end, _ in sections(data):
        if custom not in DEBUG_SECTIONS:
            kept.append(data[start:end])
    return b"".join(kept)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("imports", "strip"):
        raise SystemExit(__doc__)
    command, path = sys.argv[1:]
    with open(path, "rb") as f:
        data = f.read()
    if command == "strip":
        with open(path, "wb") as f:
            f.write(strip(data))
        sys.exit(0)
    found = imports(data)
    if found:
        print(f"{path} imports from its host:", *found, sep="\n  ")
        sys.exit(1)
    print(f"{path}: no imports: the engine is pure")
