#!/usr/bin/env python3
"""The library's shape in numbers (issue 27): lines of code per file and per function, the
import graph between the top-level modules of `crates/mdlx/src` and its cycles, and the
public items.

    python3 scripts/shape.py [--top N] [--json] [CRATE_SRC_DIR ...]
    python3 scripts/shape.py --functions FILE ...   # every function of the files, largest first
    python3 scripts/shape.py --gate                 # the table, then fail on a breach (CI)

The gate (issue 38) fails on: a source file over 600 lines of code, a function over 150
lines, a cycle between the top-level modules of any crate, and an exact copy of six or more
lines in `crates/*/src` (test code left out). An exact copy is six lines in a row that
stand again, to the letter but for white space, somewhere else; lines that carry no logic
are passed over (blank, comments, `use` and `mod` lines, lone punctuation, a bare name such
as a field in a pattern). `scripts/shape-allow.txt` names the copies kept on purpose, each
with its reason.

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


LIMIT_FILE = 600
LIMIT_FN = 150
COPY_LINES = 6
THIN = re.compile(r'^[\s{}()\[\];,.=>&|*?:]*(?:[A-Za-z_][A-Za-z0-9_]*)?[\s{}()\[\];,.=>&|*?]*$')


def before_tests(lines):
    """The lines of a file before its test module (a `#[cfg(test)]` at the start of a line)."""
    for i, l in enumerate(lines):
        if l.startswith('#[cfg(test)]'):
            return lines[:i]
    return lines


def copy_lines(path):
    """(normalised text, line number) of the lines of a file that count for copies."""
    out = []
    in_block = False
    for i, l in enumerate(open(path, encoding='utf-8').read().split('\n')):
        s = ' '.join(l.split())
        if s.startswith('#[cfg(test)]') and not l.startswith(' '):
            break  # the file's test module: test code is not held to this
        if in_block:
            in_block = '*/' not in s
            continue
        if s.startswith('/*'):
            in_block = '*/' not in s
            continue
        if (not s or s.startswith('//') or THIN.match(s)
                or re.match(r'(pub(\([a-z]+\))? )?(use|mod) ', s)):
            continue
        out.append((s, i + 1))
    return out


def exact_copies(roots, here):
    """Runs of COPY_LINES or more lines that stand in two places or more: a list of
    (lines, [(file, first line, last line), ...])."""
    files = {}
    seen = defaultdict(list)
    for root in roots:
        for p in sorted(rust_files(root)):
            if is_test(p):
                continue
            rel = os.path.relpath(p, here)
            k = copy_lines(p)
            files[rel] = k
            for j in range(len(k) - COPY_LINES + 1):
                seen[tuple(x[0] for x in k[j:j + COPY_LINES])].append((rel, j))
    # Windows that repeat, grown into runs: a window starting right after another of the
    # same places extends it.
    starts = {}
    for places in seen.values():
        if len(places) > 1:
            for rel, j in places:
                starts.setdefault((rel, j), tuple(sorted(places)))
    runs = []
    done = set()
    for (rel, j), places in sorted(starts.items()):
        if (rel, j) in done:
            continue
        n = 0
        while True:
            nxt = tuple(sorted((r, i + n + 1) for r, i in places))
            if starts.get((rel, j + n + 1)) != nxt:
                break
            n += 1
        for r, i in places:
            for m in range(n + 1):
                done.add((r, i + m))
        where = [(r, files[r][i][1], files[r][i + n + COPY_LINES - 1][1]) for r, i in places]
        runs.append((n + COPY_LINES, where))
    return runs


def allowed(path):
    """The allowed copies: sets of `file:first line text` keys, with their reasons."""
    out = []
    if not os.path.exists(path):
        return out
    for l in open(path, encoding='utf-8'):
        l = l.strip()
        if not l or l.startswith('#'):
            continue
        files, _, reason = l.partition(' -- ')
        out.append((set(files.split()), reason))
    return out


def gate(here):
    roots = sorted(os.path.join(here, 'crates', c, 'src') for c in os.listdir(os.path.join(here, 'crates'))
                   if os.path.isdir(os.path.join(here, 'crates', c, 'src')))
    breaches = []
    rows = []
    for root in roots:
        crate = os.path.relpath(os.path.dirname(root), here)
        code = []
        fns = []
        for p in rust_files(root):
            if is_test(p):
                continue
            rel = os.path.relpath(p, here)
            code.append((code_lines(before_tests(open(p, encoding='utf-8').read().split('\n'))), rel))
            fns += [(n, name, f'{rel}:{line}') for n, name, line in functions(p)]
        big = [f for f in code if f[0] > LIMIT_FILE]
        long = [f for f in fns if f[0] > LIMIT_FN]
        cyc = cycles(import_graph(root))
        public = sum(1 for p in rust_files(root) if not is_test(p)
                     for l in open(p, encoding='utf-8') if PUB_RE.match(l))
        rows.append((crate, len(code), sum(f[0] for f in code), max(f[0] for f in code),
                     max(f[0] for f in fns) if fns else 0, len(cyc), public))
        breaches += [f'file over {LIMIT_FILE} lines of code: {p} ({n})' for n, p in big]
        breaches += [f'function over {LIMIT_FN} lines: {name} {w} ({n})' for n, name, w in long]
        breaches += [f'cycle between top-level modules of {crate}: {{{", ".join(c)}}}' for c in cyc]
    allow = allowed(os.path.join(here, 'scripts', 'shape-allow.txt'))
    copies = exact_copies(roots, here)
    kept = 0
    for n, where in copies:
        files = {w[0] for w in where}
        if any(files <= a for a, _ in allow):
            kept += 1
            continue
        breaches.append(f'exact copy of {n} lines: ' + ' ~ '.join(f'{r}:{a}-{b}' for r, a, b in where))
    print('shape (issue 38 gate; limits: file 600 lines of code, function 150 lines, no cycle, no exact copy of 6 lines)')
    print(f'{"crate":<18}{"files":>7}{"code":>8}{"largest file":>14}{"longest fn":>12}{"cycles":>8}{"pub items":>11}')
    for r in rows:
        print(f'{r[0]:<18}{r[1]:>7}{r[2]:>8}{r[3]:>14}{r[4]:>12}{r[5]:>8}{r[6]:>11}')
    print(f'exact copies of {COPY_LINES}+ lines: {len(copies) - kept} ({kept} allowed in scripts/shape-allow.txt)')
    for b in breaches:
        print(f'shape: FAIL {b}')
    print('shape: ' + ('ok' if not breaches else f'{len(breaches)} breach(es)'))
    return 1 if breaches else 0


def main():
    args = sys.argv[1:]
    if args and args[0] == '--functions':
        rows = []
        for p in args[1:]:
            rows += [(n, name, f'{p}:{line}') for n, name, line in functions(p)]
        for n, name, where in sorted(rows, reverse=True):
            print(f'{n:5} {name} {where}')
        return
    if args and args[0] == '--gate':
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        sys.exit(gate(args[1] if len(args) > 1 else here))
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
