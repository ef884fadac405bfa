"""No import cycle between the modules of ``sequence``, beyond the ones listed (and being fixed)
in :data:`ALLOWED_CYCLES`. import-linter (``lint-imports``, see pyproject.toml) checks the layers
between packages; this checks inside them, with the graph import-linter builds (grimp).

A cycle is a set of modules that all reach each other by imports: a strongly connected
component of the import graph. Imports inside functions count: they are deferred, not gone.
Imports under ``if TYPE_CHECKING:`` do not: they are never run, so they cannot make an import
circle (a module that needs another's names only in its annotations, as the engine's rules do
``State``, may import it there). The contracts, which are about layers, count both.
"""

from __future__ import annotations

import grimp

from sequence.cli.main import COMMANDS

ALLOWED_CYCLES: dict[frozenset[str], str] = {}
"""Cycles known today, each with why it is there and who fixes it. Shrink it to empty: a cycle
that is gone must leave the list, and no other may appear."""


def import_cycles(graph: grimp.ImportGraph) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in sorted(graph.modules)}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[frozenset[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in edges[module]:
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == module:
                    break
            if len(component) > 1:
                cycles.append(frozenset(component))

    for module in edges:
        if module not in index:
            visit(module)
    return cycles


def describe(graph: grimp.ImportGraph, cycle: frozenset[str]) -> str:
    """The imports that make a cycle, one a line: ``a -> b (line 12)``."""
    lines = []
    for importer in sorted(cycle):
        for imported in sorted(graph.find_modules_directly_imported_by(importer) & cycle):
            details = graph.get_import_details(importer=importer, imported=imported)
            where = ", ".join(str(d["line_number"]) for d in details)
            lines.append(f"  {importer} -> {imported} (line {where})")
    return "\n".join(lines)


def test_import_cycles_are_only_the_known_ones() -> None:
    graph = grimp.build_graph("sequence", exclude_type_checking_imports=True, cache_dir=None)
    cycles = import_cycles(graph)
    new = [c for c in cycles if not any(c <= allowed for allowed in ALLOWED_CYCLES)]
    assert not new, "import cycles not in ALLOWED_CYCLES:\n" + "\n\n".join(
        describe(graph, c) for c in new
    )
    gone = [allowed for allowed in ALLOWED_CYCLES if not any(c <= allowed for c in cycles)]
    assert not gone, "cycles fixed: remove them from ALLOWED_CYCLES: " + "; ".join(
        ", ".join(sorted(c)) for c in gone
    )


def test_the_cycle_finder_finds_a_cycle_and_nothing_else() -> None:
    graph = grimp.ImportGraph()
    for module in ("p", "p.a", "p.b", "p.c", "p.d"):
        graph.add_module(module)
    for importer, imported in [("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.d", "p.a")]:
        graph.add_import(importer=importer, imported=imported, line_number=1, line_contents="")
    assert import_cycles(graph) == [frozenset({"p.a", "p.b", "p.c"})]
    assert "p.c -> p.a (line 1)" in describe(graph, frozenset({"p.a", "p.b", "p.c"}))


def test_the_entry_point_dispatches_only_to_command_modules() -> None:
    # sequence.cli.main imports each command by name, which import-linter cannot see: those
    # names may only be the cli's own commands and each other front end's `cli` module.
    for module, _ in COMMANDS.values():
        package, _, name = module.removeprefix("sequence.").partition(".")
        assert package == "cli" or name == "cli", module
