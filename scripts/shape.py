#!/usr/bin/env python3
"""The library's shape in numbers (issue 27): lines of code per file and per function, the
import graph between the top-level modules of `crates/mdlx/src` and its cycles, and the
public items.

    python3 scripts/shape.py [--top N] [--json] [CRATE_SRC_DIR ...]
    python3 scripts/shape.py --functions FILE ...   # every function of the files, largest first

Lines of code: lines that are neither blank nor only a comment (`//`, `///`, `//!`); a test
module or test file counts as what it is (files under `tests/`, `*tests.rs` are reported
apart). A function's length runs from its `fn` line to its closing brace, comments included
(what a reader scrolls through). Public items: declarations that start with `pub ` (not
`pub(crate)`, `pub(super)`) in the library's sources, outside test files; an item in a
private module is counted too (the count is of what the source declares public).
"""
import json
import os
import re
import sys
from collections import defaultdict

FN_RE = re.compile(r'^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:unsafe\s+)?(?:extern\s+"[^"]*"\s+)?fn\s+([A-Za-z_][A-Za-z0-9_]*)')
PUB_RE = re.compile(r'^\s*pub\s+(?:unsafe\s+)?(fn|struct|enum|trait|const|static|type|mod|use|union|macro)\b')


def strip_strings(line):
    """The line with string and char literals and line comments blanked (brace counting)."""
    out = []
    i = 0
    n = len(line)
    while i < n:
        c = line[i]
        if c == '/' and i + 1 < n and line[i + 1] == '/':
            break
        if c == '"':
            i += 1
            while i < n and line[i] != '"':
                i += 2 if line[i] == '\\' else 1
            i += 1
            continue
        if c == "'" and i + 2 < n and (line[i + 2] == "'" or (line[i + 1] == '\\' and "'" in line[i + 2:i + 6])):
            j = line.index("'", i + 2) if line[i + 1] != '\\' else line.index("'", i + 3)
            i = j + 1
            continue
        out.append(c)
        i += 1
    return ''.join(out)


def code_lines(lines):
    n = 0
    in_block = False
    for l in lines:
        s = l.strip()
        if in_block:
            if '*/' in s:
                in_block = False
            continue
        if not s or s.startswith('//'):
            continue
        if s.startswith('/*'):
            if '*/' not in s:
                in_block = True
            continue
        n += 1
    return n


def functions(path):
    lines = open(path, encoding='utf-8').read().split('\n')
    clean = [strip_strings(l) for l in lines]
    out = []
    for i, l in enumerate(lines):
        m = FN_RE.match(l)
        if not m:
            continue
        # The body is the first `{` outside the parameter list's brackets (a parameter can
        # be a struct pattern or an array type with `;`); a `;` there ends a declaration.
        depth = 0
        nest = 0
        started = False
        done = False
        for j in range(i, len(lines)):
            for ch in clean[j]:
                if not started:
                    if ch in '([':
                        nest += 1
                    elif ch in ')]':
                        nest -= 1
                    elif ch == '{' and nest == 0:
                        started = True
                        depth = 1
                    elif ch == '{':
                        nest += 1
                    elif ch == '}':
                        nest -= 1
                    elif ch == ';' and nest == 0:
                        done = True  # a declaration without a body (trait method)
                        break
                    continue
                if ch == '{':
                    depth += 1
                elif ch == '}':
                    depth -= 1
                    if depth == 0:
                        out.append((j - i + 1, m.group(1), i + 1))
                        done = True
                        break
            if done:
                break
    return out


def is_test(path):
    return '/tests/' in path or path.endswith('tests.rs') or path.endswith('_tests.rs')


def rust_files(root):
    for d, _, fs in os.walk(root):
        for f in fs:
            if f.endswith('.rs'):
                yield os.path.join(d, f)


def top_module(src, path):
    rel = os.path.relpath(path, src)
    first = rel.split(os.sep)[0]
    return first[:-3] if first.endswith('.rs') else first


def import_graph(src):
    edges = defaultdict(lambda: defaultdict(int))
    for p in rust_files(src):
        if is_test(p):
            continue
        me = top_module(src, p)
        # Code only: a doc link is not a dependency.
        text = '\n'.join(l for l in open(p, encoding='utf-8').read().split('\n')
                         if not l.strip().startswith('//'))
        names = [m.group(1) for m in re.finditer(r'crate::([a-z_][a-z0-9_]*)', text)]
        for m in re.finditer(r'crate::\{', text):
            depth, i, word, at_start = 1, m.end(), '', True
            while i < len(text) and depth > 0:
                c = text[i]
                if c == '{':
                    depth += 1
                elif c == '}':
                    depth -= 1
                if depth == 1 and at_start and (c.isalnum() or c == '_'):
                    word += c
                elif word:
                    names.append(word)
                    word, at_start = '', False
                if depth == 1 and c == ',':
                    at_start = True
                i += 1
        for other in names:
            exists = os.path.exists(os.path.join(src, other)) or os.path.exists(os.path.join(src, other + '.rs'))
            if other != me and exists:
                edges[me][other] += 1
    return edges


def cycles(edges):
    """Strongly connected components with more than one module (Tarjan)."""
    index = {}
    low = {}
    stack = []
    on = set()
    out = []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    nodes = set(edges) | {w for v in edges for w in edges[v]}
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main():
    args = sys.argv[1:]
    if args and args[0] == '--functions':
        rows = []
        for p in args[1:]:
            rows += [(n, name, f'{p}:{line}') for n, name, line in functions(p)]
        for n, name, where in sorted(rows, reverse=True):
            print(f'{n:5} {name} {where}')
        return
    top = 10
    as_json = False
    roots = []
    i = 0
    while i < len(args):
        if args[i] == '--top':
            top = int(args[i + 1])
            i += 2
            continue
        if args[i] == '--json':
            as_json = True
        else:
            roots.append(args[i])
        i += 1
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if not roots:
        roots = [os.path.join(here, 'crates/mdlx/src'), os.path.join(here, 'crates/mdlx-cli/src')]
    files = []
    fns = []
    public = 0
    for root in roots:
        for p in rust_files(root):
            lines = open(p, encoding='utf-8').read().split('\n')
            rel = os.path.relpath(p, here)
            files.append((code_lines(lines), rel, is_test(p)))
            if not is_test(p):
                fns += [(n, name, f'{rel}:{line}') for n, name, line in functions(p)]
                if 'crates/mdlx/src' in p:
                    public += sum(1 for l in lines if PUB_RE.match(l))
    src = roots[0]
    edges = import_graph(src)
    cyc = cycles(edges)
    code = [f for f in files if not f[2]]
    report = {
        'source files': len(code),
        'lines of code (non-test)': sum(f[0] for f in code),
        'files over 600 lines of code (non-test)': sum(1 for f in code if f[0] > 600),
        'functions': len(fns),
        'functions over 150 lines': sum(1 for f in fns if f[0] > 150),
        'public items declared in crates/mdlx/src': public,
        'largest files': [f'{n} {p}' for n, p, _ in sorted(code, reverse=True)[:top]],
        'largest functions': [f'{n} {name} {w}' for n, name, w in sorted(fns, reverse=True)[:top]],
        'import graph (module -> module: references)': {
            a: dict(sorted(b.items())) for a, b in sorted(edges.items())
        },
        'cycles (strongly connected module groups)': cyc,
    }
    if as_json:
        print(json.dumps(report, indent=1))
        return
    for k, v in report.items():
        if isinstance(v, list) and v and isinstance(v[0], str):
            print(f'{k}:')
            for x in v:
                print(f'  {x}')
        elif isinstance(v, dict):
            print(f'{k}:')
            for a, b in v.items():
                print(f'  {a} -> ' + ', '.join(f'{m} {n}' for m, n in b.items()))
        else:
            print(f'{k}: {v}')


if __name__ == '__main__':
    main()
