#!/usr/bin/env python3
"""Checks that every function libascendcl.so exports goes through the no-throw
boundary (DESIGN.md §2.7): its definition's body is a function-try-block
closed by ACL_ENTRY_CATCH(type) or ACL_ENTRY_CATCH_RETURN(value).

  c_entry_check.py LIBRARY SOURCE...

The exported symbols come from `nm -D --defined-only LIBRARY`; each must have
exactly one definition, at file scope or in an extern "C" block, among the
SOURCE files, so the check cannot pass by scanning nothing.
"""
import re
import subprocess
import sys


def strip(text):
    """Blanks comments, literals and preprocessor lines, keeping offsets."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and text[i:i + 200].lstrip(' \t').startswith('#'):
            k = i
            while True:  # through continuation lines
                k = text.find('\n', k)
                if k < 0:
                    k = n
                    break
                if text[k - 1] != '\\':
                    break
                k += 1
            out.append(''.join(ch if ch == '\n' else ' ' for ch in text[i:k]))
            i = k
            continue
        line_start = False
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(''.join(ch if ch == '\n' else ' ' for ch in text[i:j]))
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            body = ''.join(ch if ch == '\n' else ' ' for ch in text[i + 1:j])
            out.append(c + body + c)
            i = j + 1
        else:
            out.append(c)
            line_start = c == '\n'
            i += 1
    return ''.join(out)


HEAD = re.compile(r'^(.*?)\b([A-Za-z_]\w*)\s*\((.*)\)\s*(?:const\s*)?'
                  r'(?:noexcept\s*)?(try)?$')
CATCH = re.compile(r'\s*ACL_ENTRY_CATCH(?:_RETURN)?\(')


def definitions(text):
    """(name, line, wrapped) of each function defined at file scope, in a
    namespace or in an extern "C" block; `in_namespace` marks the last."""
    s = strip(text)
    stack = []
    i, n, stmt = 0, len(s), 0
    while i < n:
        c = s[i]
        if c == '{':
            head = ' '.join(s[stmt:i].split())
            if re.fullmatch(r'extern " ?"', head):
                stack.append('extern')
            elif re.match(r'^(inline )?namespace\b', head):
                stack.append('namespace')
            else:
                m = HEAD.match(head)
                if (all(k != 'other' for k in stack) and m and
                        '=' not in m.group(1) and not re.match(
                            r'^(struct|class|enum|union|typedef)\b', head)):
                    depth, j = 0, i
                    while True:
                        if s[j] == '{':
                            depth += 1
                        elif s[j] == '}':
                            depth -= 1
                            if depth == 0:
                                break
                        j += 1
                    catch = CATCH.match(s, j + 1)
                    wrapped = bool(m.group(4)) and bool(catch)
                    yield (m.group(2), s.count('\n', 0, i) + 1, wrapped,
                           'namespace' in stack)
                    i = j + 1
                    if catch:  # past the macro's parenthesised argument
                        depth, i = 1, catch.end()
                        while depth:
                            depth += {'(': 1, ')': -1}.get(s[i], 0)
                            i += 1
                    stmt = i
                    continue
                stack.append('other')
            i += 1
            stmt = i
            continue
        if c == '}':
            if stack:
                stack.pop()
            stmt = i + 1
        elif c == ';':
            stmt = i + 1
        i += 1


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    lib, sources = argv[1], argv[2:]
    nm = subprocess.run(['nm', '-D', '--defined-only', lib], check=True,
                        capture_output=True, text=True).stdout
    exported = sorted({f[2] for f in (l.split() for l in nm.splitlines())
                       if len(f) == 3 and f[1] in 'TWi'})
    if len(exported) < 100:
        print(f'FAIL: only {len(exported)} functions exported by {lib}')
        return 1
    found = {}
    for path in sources:
        with open(path, encoding='utf-8') as f:
            for name, line, wrapped, in_ns in definitions(f.read()):
                if not in_ns:
                    found.setdefault(name, []).append((path, line, wrapped))
    failures = []
    for name in exported:
        defs = found.get(name, [])
        if len(defs) != 1:
            failures.append(f'{name}: {len(defs)} definitions in the scanned '
                            f'sources, expected 1 {defs}')
        elif not defs[0][2]:
            path, line, _ = defs[0]
            failures.append(f'{path}:{line}: {name} is not a function-try-block '
                            'closed by ACL_ENTRY_CATCH')
    if failures:
        print('FAIL: exported functions outside the no-throw boundary '
              '(DESIGN.md §2.7):')
        print('\n'.join(failures))
        return 1
    print(f'PASS: all {len(exported)} exported functions of {lib} go through '
          f'ACL_ENTRY_CATCH ({len(sources)} sources scanned)')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
