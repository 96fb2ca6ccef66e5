#!/usr/bin/env python3
"""Fails when a wasm module imports anything: lists the import section's entries."""
import sys


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


def imports(data):
    if data[:4] != b"\0asm":
        raise SystemExit("not a wasm module")
    pos, found = 8, []
    while pos < len(data):
        section, pos = data[pos], pos + 1
        size, pos = leb128(data, pos)
        if section == 2:
            count, p = leb128(data, pos)
            for _ in range(count):
                module, p = name(data, p)
                field, p = name(data, p)
                kind = data[p]
                found.append(f"{module}.{field} (kind {kind})")
                p = skip_desc(data, p + 1, kind)
        pos += size
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


if __name__ == "__main__":
    path = sys.argv[1]
    with open(path, "rb") as f:
        found = imports(f.read())
    if found:
        print(f"{path} imports from its host:", *found, sep="\n  ")
        sys.exit(1)
    print(f"{path}: no imports: the engine is pure")
