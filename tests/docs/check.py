#!/usr/bin/python3
# gst-bc
# Copyright (C) 2026 gst-bc developers
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The docs name only what exists (the `docs` test).

README.md and docs/*.md may name only:
- files and directories of the tree (paths such as gst-libs/gst/tile/tilewire.c,
  and source file names such as `tilesender-units.c`);
- functions that are defined in the tree or declared by GStreamer and GLib
  (`gst_tile_sender_push ()`, `g_object_set`);
- properties that the element has, in every pipeline (`tilesrc host=... `)
  and in each element's property table of docs/elements.md;
- debug categories that the plugins and libraries register (`GST_DEBUG=...`,
  "Debug categories:" lists).
The private headers' "/* file.c */" sections may declare only functions
defined in that file.

Run by meson with GST_PLUGIN_PATH at the build tree's plugins; argument: the
source root. Exit 0 = pass; every problem is printed."""
import glob
import os
import re
import sys

import gi
gi.require_version('Gst', '1.0')
from gi.repository import GObject, Gst  # noqa: E402

# named in the docs, not in this tree: GStreamer's own sources the design
# compares with, and the reference encoder of a published comparison
EXTERNAL = {'gst-libs/gst/rtp', 'gst/rtp', 'gst/tcp', 'gst-libs/gst/codecs',
            'stb_dxt.h'}
ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), '..', '..'))
DOCS = [os.path.join(ROOT, 'README.md')] + sorted(
    glob.glob(os.path.join(ROOT, 'docs', '*.md')))
SOURCE_DIRS = ['gst', 'gst-libs', 'tests', 'benchmarks', 'examples']
OUR_PLUGINS = ('bc', 'tile', 'glbc', 'hap')
problems = []


def problem(doc, line, what):
    problems.append(f'{os.path.relpath(doc, ROOT)}:{line}: {what}')


def tracked_files():
    out = set()
    for top in ['.'] + SOURCE_DIRS + ['docs', '.ci']:
        base = os.path.join(ROOT, top)
        if not os.path.isdir(base):
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = [d for d in dirnames if not d.startswith('build')
                           and d not in ('.git', '__pycache__', 'corpus')
                           and not d.startswith('.baseline')]
            rel = os.path.relpath(dirpath, ROOT)
            if rel != '.':
                out.add(rel)
            for f in filenames:
                out.add(os.path.normpath(os.path.join(rel, f)))
            if top == '.':
                dirnames[:] = []
    return out


FILES = tracked_files()
BASENAMES = {os.path.basename(f) for f in FILES}


def source_texts():
    for top in SOURCE_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(ROOT, top)):
            dirnames[:] = [d for d in dirnames if not d.startswith('build')
                           and not d.startswith('.baseline')]
            for f in filenames:
                if f.endswith(('.c', '.h', '.py', '.comp', '.glsl')):
                    p = os.path.join(dirpath, f)
                    with open(p, encoding='utf-8', errors='replace') as fh:
                        yield p, fh.read()


DEF_RE = re.compile(r'^(?:[A-Za-z_][\w \*]*\s)?\**(g(?:st)?_\w+)\s*\(', re.M)
MACRO_RE = re.compile(r'^#\s*define\s+(g(?:st)?_\w+)', re.M)
DEFINED = {}
for path, text in source_texts():
    if path.endswith(('.c', '.h')):
        for m in DEF_RE.finditer(text):
            line = text[m.start():text.find('\n', m.start())]
            if not line.rstrip().endswith(';') or path.endswith('.h'):
                DEFINED.setdefault(m.group(1), set()).add(path)
        for m in MACRO_RE.finditer(text):
            DEFINED.setdefault(m.group(1), set()).add(path)

SYSTEM = set()
for inc in ('/usr/include/gstreamer-1.0', '/usr/include/glib-2.0'):
    for dirpath, _, filenames in os.walk(inc):
        for f in filenames:
            if f.endswith('.h'):
                with open(os.path.join(dirpath, f), errors='replace') as fh:
                    SYSTEM.update(re.findall(r'\b(g(?:st)?_\w+)\s*\(',
                                             fh.read()))

# --- GStreamer: our elements and debug categories -------------------------
Gst.init(None)
registry = Gst.Registry.get()
OURS = {}
for plugin_name in OUR_PLUGINS:
    plugin = registry.find_plugin(plugin_name)
    if plugin is None:
        continue
    plugin.load()
    for feature in registry.get_feature_list_by_plugin(plugin_name):
        if isinstance(feature, Gst.ElementFactory):
            OURS[feature.get_name()] = feature
if 'tilesink' not in OURS or 'bcdec' not in OURS:
    print('FAIL: the plugins of the build tree are not found '
          f'(GST_PLUGIN_PATH={os.environ.get("GST_PLUGIN_PATH")})')
    sys.exit(1)
ELEMENTS = {}


def element(name):
    if name not in ELEMENTS:
        f = Gst.ElementFactory.find(name)
        ELEMENTS[name] = f.create(None) if f else None
    return ELEMENTS[name]


for name in OURS:
    element(name)
CATEGORIES = {c.get_name() for c in Gst.debug_get_all_categories()}
# and those registered only when their code first runs
for path, text in source_texts():
    CATEGORIES.update(re.findall(
        r'GST_DEBUG_CATEGORY_INIT\s*\(\s*\w+\s*,\s*"([\w-]+)"', text))

# --- the checks --------------------------------------------------------------
PATH_RE = re.compile(r'(?<![\w/.-])((?:gst|gst-libs|tests|benchmarks|docs|'
                     r'examples|\.ci)/[\w./*{}-]*[\w*}/])')
NAME_RE = re.compile(r'`([\w.-]+\.(?:c|h|py|sh|comp|md|json|build))`')
FUNC_RE = re.compile(r'\b(g(?:st)?_[a-z0-9_]+)(?:\s*\(\))?')
PIPE_TOKEN = re.compile(r'^([a-z][a-z0-9_-]*)=')


def check_path(doc, n, path, line):
    path = path.rstrip('.')
    if path in EXTERNAL:
        return
    if '{' in path or '*' in path:
        pattern = re.sub(r'\{[^}]*\}', '*', path)
        if not glob.glob(os.path.join(ROOT, pattern)):
            problem(doc, n, f'no file matches {path}')
        return
    for candidate in (path, path + '.c', 'gst-libs/' + path):
        if os.path.normpath(candidate) in FILES or os.path.exists(
                os.path.join(ROOT, candidate)):
            return
    # an output a command line on this line names (--plots-dir DIR)
    if re.search(r'--[\w-]+[ =]' + re.escape(path), line) and os.path.isdir(
            os.path.join(ROOT, os.path.dirname(path))):
        return
    problem(doc, n, f'no such file: {path}')


def check_pipeline(doc, n, text):
    """`elem prop=v ! elem2 ...`: every prop= of a known element exists"""
    for part in re.split(r'\s!\s|^!\s|\s!$', text):
        tokens = part.split()
        if not tokens:
            continue
        name = tokens[0]
        if name not in OURS:
            continue
        e = element(name)
        for t in tokens[1:]:
            m = PIPE_TOKEN.match(t)
            if not m:
                continue
            spec = e.find_property(m.group(1))
            if spec is None:
                problem(doc, n, f'{name} has no property {m.group(1)}')
            elif spec.flags & GObject.ParamFlags.DEPRECATED:
                problem(doc, n, f'{name}\'s {m.group(1)} is deprecated')


def check_doc(doc):
    with open(doc) as fh:
        lines = fh.read().split('\n')
    in_code = False
    section = None
    for n, line in enumerate(lines, 1):
        if line.startswith('```'):
            in_code = not in_code
            continue
        if line.startswith('## '):
            section = line[3:].strip()
        for m in PATH_RE.finditer(line):
            check_path(doc, n, m.group(1), line)
        for m in NAME_RE.finditer(line):
            base = m.group(1)
            if '/' not in base and base not in BASENAMES \
                    and base not in EXTERNAL:
                problem(doc, n, f'no file named {base}')
        for m in FUNC_RE.finditer(line):
            f = m.group(1)
            if f in DEFINED or f in SYSTEM or line[m.end():].startswith('*'):
                continue
            if f.startswith(('gst_bc_', 'gst_tile_', 'gst_gl_bc_', 'gst_hap')) \
                    or m.group(0).endswith(')'):
                problem(doc, n, f'no function {f}')
        pipes = [line] if in_code else re.findall(r'`([^`]+)`', line)
        for p in pipes:
            check_pipeline(doc, n, p.strip())
        # a property table row in an element's section of elements.md
        if (doc.endswith('elements.md') and section in OURS
                and not in_code):
            m = re.match(r'^\| `([a-z][a-z0-9-]*)` \|', line)
            if m and element(section).find_property(m.group(1)) is None:
                # statistics tables name fields, not properties: they
                # follow a "stats" heading or paragraph
                pass
        for m in re.finditer(r'GST_DEBUG=([\w*:,.-]+)', line):
            for item in m.group(1).split(','):
                cat = item.split(':')[0]
                if cat and not cat.isdigit():
                    pattern = re.compile('^' + re.escape(cat).replace(
                        r'\*', '.*') + '$')
                    if not any(pattern.match(c) for c in CATEGORIES):
                        problem(doc, n, f'no debug category {cat}')
        m = re.search(r'Debug categor(?:y|ies):(.*)', line)
        if m:
            rest = m.group(1)
            k = n
            while not rest.rstrip().endswith('.') and k < len(lines):
                rest += ' ' + lines[k]
                k += 1
            rest = re.split(r'\. |e\.g\.', rest)[0]
            rest = re.sub(r'\([^)]*\)', '', rest)
            for cat in re.findall(r'`([\w-]+)`', rest):
                if cat not in CATEGORIES:
                    problem(doc, n, f'no debug category {cat}')


def check_property_tables():
    """each element section's first table (its properties) names only
    properties of that element"""
    doc = os.path.join(ROOT, 'docs', 'elements.md')
    with open(doc) as fh:
        lines = fh.read().split('\n')
    section, in_props = None, False
    for n, line in enumerate(lines, 1):
        if line.startswith('## '):
            section = line[3:].strip()
            in_props = False
        elif line.startswith('#') or line.lower().startswith('**'):
            in_props = 'propert' in line.lower()
        if section in OURS and in_props:
            m = re.match(r'^\| `([a-z][a-z0-9-]*)` \|', line)
            if m and element(section).find_property(m.group(1)) is None:
                problem(doc, n, f'{section} has no property {m.group(1)}')


def check_private_headers():
    """/* tilereceiver-tcp.c */ in a private header: the declarations that
    follow, up to the next such comment, are defined in that file"""
    for h in glob.glob(os.path.join(ROOT, 'gst*', '**', '*.h'),
                       recursive=True):
        with open(h) as fh:
            lines = fh.read().split('\n')
        current, inline = None, False
        for n, line in enumerate(lines, 1):
            m = re.match(r'^/\* ([\w-]+\.c)(?:[:,].*)? \*/$', line.strip()) \
                or re.match(r'^/\* ([\w-]+\.c)(?:[:,].*)?$', line.strip())
            if m:
                current = m.group(1)
                continue
            stripped = line.strip()
            if 'static inline' in stripped:
                inline = True
            if current is None or stripped.startswith(('/*', '*')):
                continue
            if inline:
                # defined here; the declarations resume after its body
                if stripped == '}':
                    inline = False
                continue
            for f in re.findall(r'\b(g(?:st)?_\w+)\s*\(', line):
                if f.endswith(('_get_type', '_TYPE')) or f in SYSTEM:
                    continue
                where = {os.path.basename(p) for p in DEFINED.get(f, ())
                         if p.endswith('.c')}
                if current not in where:
                    problem(h, n, f'{f} is listed under {current} but '
                            f'defined in {", ".join(sorted(where)) or "no file"}')


for d in DOCS:
    check_doc(d)
check_property_tables()
check_private_headers()
for p in problems:
    print(p)
print(f'docs: {len(DOCS)} documents, {len(FILES)} files, '
      f'{len(DEFINED)} functions, {len(OURS)} elements, '
      f'{len(CATEGORIES)} debug categories checked; {len(problems)} problems')
sys.exit(1 if problems else 0)
