"""Catalogue checks shared by ``scripts/i18n-update.sh`` and the tests.

``python -m sequence.i18n.check`` extracts the marked strings of the terminal game and the web
app (the same rules as the script: ``babel.cfg`` and :data:`KEYWORDS`) and lists, per language,
every message that is missing, untranslated, fuzzy or left over. It exits 1 if any is found.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg

from . import SUPPORTED, load_catalog, plural_forms

HERE = Path(__file__).parent
SOURCE_ROOT = HERE.parent
"""``src/sequence``: what is extracted (``babel.cfg`` says which files, and how)."""
BABEL_CFG = HERE / "babel.cfg"
KEYWORDS: dict[str, object] = {
    **DEFAULT_KEYWORDS,
    "N_": None,
    "Nn_": (1, 2),
    "_m": None,
    "t": None,
    "tn": (1, 2),
}
"""Babel's defaults plus ``N_``/``Nn_`` (mark now, translate where shown), the engine's ``_m``
(its errors' templates) and the web client's ``t("...")`` / ``tn("one", "many", n)``. The script
passes the same as ``-k`` options."""

PLACEHOLDER = re.compile(r"\{(\w*)(?:[:!][^{}]*)?\}")


def extract_template() -> Catalog:
    """Every marked message of the sources, as ``pybabel extract`` finds them."""
    with BABEL_CFG.open() as f:
        # Babel leaves this one function without annotations.
        method_map, options_map = parse_mapping_cfg(f, filename=str(BABEL_CFG))  # type: ignore[no-untyped-call]
    catalog = Catalog(project="sequence-games")
    for filename, lineno, message, comments, context in extract_from_dir(
        str(SOURCE_ROOT),
        method_map,
        options_map,
        keywords=KEYWORDS,  # type: ignore[arg-type]
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    return catalog


def msgids(catalog: Iterable[object]) -> set[str]:
    """The singular msgids of a catalogue (the header left out)."""
    out = set()
    for message in catalog:
        mid = message.id  # type: ignore[attr-defined]
        if mid:
            out.add(mid[0] if isinstance(mid, (tuple, list)) else mid)
    return out


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a message."""
    return {m.group(1) for m in PLACEHOLDER.finditer(text)}


def problems(lang: str, template: Catalog | None = None) -> list[str]:
    """Everything wrong with one language's catalogue, one line each (empty when complete)."""
    template = template if template is not None else extract_template()
    catalog = load_catalog(lang)
    out = []
    wanted = msgids(template)
    have = msgids(catalog)
    out += [f"{lang}: missing {mid!r}" for mid in sorted(wanted - have)]
    out += [f"{lang}: not in the sources (obsolete) {mid!r}" for mid in sorted(have - wanted)]
    for message in catalog:
        if not message.id:
            continue
        mid = message.id
        if message.fuzzy:
            out.append(f"{lang}: fuzzy {mid!r}")
        if isinstance(mid, (tuple, list)):
            forms = plural_forms(message)
            if len(forms) != catalog.num_plurals or not all(forms):
                out.append(f"{lang}: plural forms incomplete for {mid[0]!r}")
            fields = placeholders(mid[1])
            for form in forms:
                if form and placeholders(form) != fields:
                    out.append(f"{lang}: placeholders differ in {form!r} for {mid[0]!r}")
        else:
            if not message.string:
                out.append(f"{lang}: untranslated {mid!r}")
            elif placeholders(str(message.string)) != placeholders(mid):
                out.append(f"{lang}: placeholders differ in {message.string!r} for {mid!r}")
    return out


def main() -> int:
    template = extract_template()
    found = [line for lang in SUPPORTED for line in problems(lang, template)]
    for line in found:
        print(line)
    print(f"{len(msgids(template))} messages; {len(found)} problems", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
