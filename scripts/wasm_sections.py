#!/usr/bin/env python3
"""Reads and rewrites wasm modules' sections (no dependencies).

    wasm_sections.py imports MODULE      fail when MODULE imports anything from its host
    wasm_sections.py strip MODULE        drop the debug-only custom sections (`name`,
                                         `producers`) in place: they weigh about a quarter
                                         of a gzipped package and no runtime reads them
    wasm_sections.py functions MODULE    the largest function bodies, named by the `name`
                                         section, and their bytes summed per crate. Size
                                         what ships: cargo's wasm32 output (built with
                                         `-C debuginfo=0`) through `wasm-bindgen
                                         --keep-debug`, which keeps the names
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


def function_sizes(data):
    """(name, bytes of body) for each function the module defines."""
    imported, names, bodies = 0, {}, []
    for section, custom, _, end, body in sections(data):
        if section == 2:
            count, p = leb128(data, body)
            for _ in range(count):
                p = name(data, name(data, p)[1])[1]
                kind = data[p]
                imported += kind == 0
                p = skip_desc(data, p + 1, kind)
        elif section == 10:
            count, p = leb128(data, body)
            for _ in range(count):
                size, p = leb128(data, p)
                bodies.append(size)
                p += size
        elif custom == "name":
            p = name(data, body)[1]
            while p < end:
                kind, size, sub = data[p], *leb128(data, p + 1)
                if kind == 1:  # function names
                    count, q = leb128(data, sub)
                    for _ in range(count):
                        index, q = leb128(data, q)
                        names[index], q = name(data, q)
                p = sub + size
    return [(names.get(imported + i, f"#{imported + i}"), size) for i, size in enumerate(bodies)]


def crate_of(function):
    """The crate of a Rust symbol, or of the type an impl is for: demangled
    (`<alloc::vec::Vec<T> as core::clone::Clone>::clone`, as wasm-bindgen leaves names) or
    legacy-mangled (`_ZN4core3fmt5write17h…E`, as rustc writes them)."""
    if function.startswith("_ZN"):
        rest, digits = function[3:], ""
        while rest[:1].isdigit():
            digits, rest = digits + rest[0], rest[1:]
        function = rest[: int(digits or 0)].replace("$LT$", "<").replace("..", "::")
        function = function.replace("$RF$", "&").replace("$u20$", " ")
    rest = function.lstrip("_<&*").removeprefix("mut ").removeprefix("const ")
    return rest.split("::")[0].split("[")[0].split("<")[0].split(" ")[0] or function


def strip(data):
    kept = [data[:8]]
    for _, custom, start, end, _ in sections(data):
        if custom not in DEBUG_SECTIONS:
            kept.append(data[start:end])
    return b"".join(kept)


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] not in ("imports", "strip", "functions"):
        raise SystemExit(__doc__)
    command, path = sys.argv[1:]
    with open(path, "rb") as f:
        data = f.read()
    if command == "strip":
        with open(path, "wb") as f:
            f.write(strip(data))
        sys.exit(0)
    if command == "functions":
        sizes = sorted(function_sizes(data), key=lambda f: -f[1])
        crates = {}
        for function, size in sizes:
            crates[crate_of(function)] = crates.get(crate_of(function), 0) + size
        print(f"{sum(s for _, s in sizes)} bytes of code in {len(sizes)} functions")
        for crate, size in sorted(crates.items(), key=lambda c: -c[1])[:20]:
            print(f"{size:>9}  {crate}")
        print()
        for function, size in sizes[:80]:
            print(f"{size:>9}  {function}")
        sys.exit(0)
    found = imports(data)
    if found:
        print(f"{path} imports from its host:", *found, sep="\n  ")
        sys.exit(1)
    print(f"{path}: no imports: the engine is pure")
