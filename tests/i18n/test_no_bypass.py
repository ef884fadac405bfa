"""No user-facing text in the terminal game or the web app bypasses the catalogue.

Scans whatever exists of ``src/sequence/tui`` and ``src/sequence/server`` (Python, and the web
client's JavaScript and HTML) for string literals that read as prose for a player and are not
inside a translation call (``_``, ``gettext``, ``ngettext``, ``N_``, ``Nn_``; ``t``/``tn`` in
JavaScript). Not counted: docstrings, logging, ``argparse`` help (the ``sequence`` command's own
help is English like every other subcommand), Textual CSS, exceptions that no player sees
(``ValueError`` and friends raised for programmers), and lines marked ``# i18n: ignore`` /
``// i18n: ignore``. HTML text must sit in an element with ``data-i18n`` (filled in by the client).
"""

from __future__ import annotations

import ast
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "sequence"
ROOTS = [SRC / "tui", SRC / "server"]
TRANSLATE = {"_", "gettext", "ngettext", "pgettext", "npgettext", "N_", "Nn_", "t", "tn"}
DEVELOPER_CALLS = {
    "debug", "info", "warning", "error", "exception", "critical", "log", "add_argument",
                   "add_parser", "ArgumentParser", "getLogger", "warn"}  # fmt: skip
DEVELOPER_EXCEPTIONS = {"ValueError", "TypeError", "RuntimeError", "AssertionError", "KeyError",
                        "NotImplementedError", "IndexError", "LookupError", "OSError"}  # fmt: skip
STYLE_WORDS = {"bold", "dim", "italic", "underline", "reverse", "blink", "strike", "not", "on",
               "black", "white", "red", "green", "blue", "yellow", "magenta", "cyan", "grey",
               "bright_black", "bright_white", "bright_red", "bright_green", "bright_blue",
               "bright_yellow", "bright_magenta", "bright_cyan", "default"}  # fmt: skip
CODE_ATTRS = {"CSS", "DEFAULT_CSS", "CSS_PATH", "BINDINGS", "SQL", "__all__"}
PROSE = re.compile(r"[A-Za-zÀ-ÿА-яЁёІіЇїЄєҐґ]{2,}[,.!?:;]?\s+[A-Za-zÀ-ÿА-яЁёІіЇїЄєҐґ]{2,}")
CODEISH = re.compile(r"^[\w.:/@#=<>{}\[\]()\-+*%$&|^~\"'\\ ]*$")


def is_prose(text: str) -> bool:
    """Words separated by spaces, not SQL, CSS, a path or markup."""
    s = text.strip()
    if not PROSE.search(s):
        return False
    if re.match(r"^(SELECT|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|WITH|PRAGMA)\b", s, re.I):
        return False
    if s.startswith(("<", "#", ".", "/")) or ("{" in s and ";" in s and ":" in s):
        return False
    if all(w in STYLE_WORDS or w.startswith("#") for w in s.split()):
        return False  # a rich / Textual style such as "bold underline" or "white on blue"
    identifiers = re.fullmatch(r"[a-z0-9_.\- ]+", s) and len(s.split()) <= 3 and "_" in s
    return not identifiers


def _python_findings(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    tree = ast.parse(source)
    skip: set[int] = set()

    def mark(node: ast.AST) -> None:
        for sub in ast.walk(node):
            skip.add(id(sub))

    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and body
        ):
            first = body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                mark(first)
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in TRANSLATE or name in DEVELOPER_CALLS:
                mark(node)
            for kw in node.keywords:
                if kw.arg in (
                    "help",
                    "description",
                    "epilog",
                    "classes",
                    "id",
                    "variant",
                    "cascade",
                    "ondelete",
                    "server_default",
                    "style",
                ):
                    mark(kw.value)
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            func = node.exc.func
            if getattr(func, "id", getattr(func, "attr", "")) in DEVELOPER_EXCEPTIONS:
                mark(node)
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(getattr(t, "id", getattr(t, "attr", "")) in CODE_ATTRS for t in targets):
                mark(node)
        if isinstance(node, ast.Dict):
            for key in node.keys:
                if key is not None:
                    mark(key)
        if isinstance(node, ast.Subscript):
            mark(node.slice)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            mark(node)  # a docstring of a module, class, function or attribute
    out = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and is_prose(node.value):
            line = lines[node.lineno - 1]
            if "i18n: ignore" not in line:
                out.append(f"{path.relative_to(SRC)}:{node.lineno}: {node.value[:70]!r}")
    return out


_JS_COMMENT = re.compile(r"/\*.*?\*/|(?<![:\"'\\])//[^\n]*", re.S)
_JS_STRING = re.compile(r"(?P<q>[\"'`])(?P<body>(?:\\.|(?!(?P=q)).)*)(?P=q)", re.S)
_JS_TRANSLATED = re.compile(r"\b(?:t|tn)\(\s*$")


def _js_findings(path: Path) -> list[str]:
    source = path.read_text(encoding="utf-8")
    out = []
    lines = source.splitlines()
    for m in _JS_STRING.finditer(source):
        before = source[max(0, m.start() - 40) : m.start()]
        lineno = source.count("\n", 0, m.start()) + 1
        line = lines[lineno - 1] if lineno <= len(lines) else ""
        if "i18n: ignore" in line or line.lstrip().startswith(("//", "*", "/*")):
            continue
        if _JS_TRANSLATED.search(before) or re.search(r"\b(?:t|tn)\([^()]*,\s*$", before):
            continue
        body = re.sub(r"\$\{[^}]*\}", " ", m.group("body"))
        body = re.sub(r"<[^>]+>", " ", body)
        if is_prose(body) and not re.search(r"console\.\w+\(\s*$", before):
            out.append(f"{path.relative_to(SRC)}:{lineno}: {body.strip()[:70]!r}")
    return out


class _Html(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.stack: list[tuple[str, bool]] = []
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("br", "img", "input", "meta", "link", "hr"):
            return
        marked = any(k == "data-i18n" for k, _ in attrs) or tag in ("script", "style", "code")
        self.stack.append((tag, marked))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def handle_data(self, data: str) -> None:
        if any(marked for _, marked in self.stack):
            return
        if re.search(r"[A-Za-zА-яЁё]{2,}", data):
            self.found.append(data.strip()[:70])


def _html_findings(path: Path) -> list[str]:
    parser = _Html()
    parser.feed(path.read_text(encoding="utf-8"))
    return [f"{path.relative_to(SRC)}: {text!r}" for text in parser.found]


def scan() -> list[str]:
    found: list[str] = []
    for root in ROOTS:
        if not root.exists():
            continue
        for path in sorted(root.rglob("*")):
            if "migrations" in path.parts or "__pycache__" in path.parts:
                continue
            if path.suffix == ".py":
                found += _python_findings(path)
            elif path.suffix in (".js", ".mjs") and not path.name.endswith(".min.js"):
                found += _js_findings(path)
            elif path.suffix == ".html":
                found += _html_findings(path)
    return found


def test_scanner_sees_prose_and_ignores_code(tmp_path: Path) -> None:
    assert is_prose("It is your turn.")
    assert is_prose("Стол полон")
    assert not is_prose("game_id")
    assert not is_prose("SELECT id FROM games WHERE code = ?")
    assert not is_prose("#board .space { color: red; }")
    assert not is_prose("ctrl+c")


def test_no_user_facing_string_bypasses_the_catalogue() -> None:
    found = scan()
    if not any(root.exists() for root in ROOTS):
        pytest.skip("neither the terminal game nor the web app exists yet")
    assert not found, f"{len(found)} strings bypass the catalogue:\n" + "\n".join(found[:60])
