"""The layers as README.md draws them ("How it is built"), checked against
the imports: every module of pybridge/ is in one layer, and imports only
from its own layer or those below (imports for type checking alone, under
`if TYPE_CHECKING:`, do not count; imports inside functions do). And the
two front doors stay apart: commands/ (the command line) and serve/ (the
workbench) reach each other only where the `serve` command starts the
server. Reads the repository alone: it never needs ../shared.

Run as a script (`.venv/bin/python tests/test_layers.py`) it prints the
layers, their modules and the imports checked.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "pybridge"
README = ROOT / "README.md"
SEARCH_MD = ROOT / "docs" / "search.md"

# The package itself (its API) and `python -m pybridge`: the top layer.
TOP = ("pybridge", "pybridge.__main__")
# The one crossing of the front doors: the serve command starts the server.
FRONT_DOORS = ("pybridge.commands", "pybridge.serve")
CROSSING = ("pybridge.commands.serve", "pybridge.serve")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


# ---------------------------------------------------------------- README's layers

_LAYER_LINE = re.compile(r"^ ([a-z]+)\s")
_TOKEN = re.compile(r"(?<![\w/.])((?:\w+/)*\w+\.py|\w+/)(?![\w.])")
_ASIDE = re.compile(r"\([^()]*\)")


def drawn_layers(text: str) -> list[tuple[str, list[str]]]:
    """The layers of README's drawing, top first: each name with the
    module paths (`cli.py`, `search/kernel.py`) and packages (`commands/`)
    written on its lines, asides in parentheses left out."""
    section = text.split("## How it is built", 1)[1]
    drawing = section.split("```text\n", 1)[1].split("```", 1)[0]
    layers: list[tuple[str, list[str]]] = []
    for line in drawing.splitlines():
        start = _LAYER_LINE.match(line)
        if start:
            layers.append((start.group(1), []))
            line = line[start.end() :]
        if layers:
            layers[-1][1].extend(_TOKEN.findall(_ASIDE.sub("", line)))
    return layers


def _covered(token: str) -> list[str]:
    """The modules a token of the drawing stands for."""
    if token.endswith("/"):
        package = "pybridge." + token.rstrip("/").replace("/", ".")
        return [name for name in MODULES if _under(name, package)]
    name = "pybridge." + token[: -len(".py")].replace("/", ".")
    name = name.removesuffix(".__init__")
    return [name] if name in MODULES else []


def layer_of_each(layers: list[tuple[str, list[str]]]) -> tuple[dict[str, int], list[str]]:
    """Each module's layer (0 the bottom; the package and its __main__ the
    top one), and what the drawing gets wrong: a name that is no module, a
    module in two layers. A module named itself (`wordlist/build.py`) is in
    that layer though its package (`wordlist/`) is drawn in another."""
    rank: dict[str, int] = dict.fromkeys(TOP, len(layers) - 1)
    wrong: list[str] = []
    for files in (True, False):  # the modules named themselves first
        named = dict(rank) if not files else {}
        for place, (layer, tokens) in enumerate(reversed(layers)):
            for token in tokens:
                if token.endswith("/") == files:
                    continue
                covered = _covered(token)
                if not covered:
                    wrong.append(f"{layer}: {token} is no module of pybridge/")
                for name in covered:
                    if name in named and not files:
                        continue  # named itself in its own layer
                    if rank.setdefault(name, place) != place:
                        wrong.append(f"{name} is drawn in two layers")
    return rank, wrong


# ---------------------------------------------------------------- the imports


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_of(name: str) -> set[str]:
    """The pybridge modules `name` imports (the module itself when a name
    is imported from it), but for those under `if TYPE_CHECKING:`."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                for other in child.orelse:
                    visit(other)
                continue
            if isinstance(child, ast.Import):
                found.update(a.name for a in child.names if _under(a.name, "pybridge"))
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parts = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*parts, base] if base else parts)
                if _under(base, "pybridge"):
                    for alias in child.names:
                        whole = f"{base}.{alias.name}"
                        found.add(whole if whole in MODULES else base)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    found.discard(name)
    return found


@dataclass(frozen=True)
class Edge:
    """`source` imports `target`."""

    source: str
    target: str

    @property
    def ends(self) -> tuple[str, str]:
        return self.source, self.target


def every_import() -> list[Edge]:
    return [Edge(name, target) for name in MODULES for target in sorted(imports_of(name))]


# ---------------------------------------------------------------- the checks


def check(rank: dict[str, int], names: list[str], edges: list[Edge]) -> list[str]:
    """The imports that go up a layer (`rank`: each module's layer, 0 the
    bottom; `names`: the layers' names, bottom first), and those between
    the front doors."""
    found = []
    for edge in edges:
        source, target = rank.get(edge.source), rank.get(edge.target)
        if source is not None and target is not None and target > source:
            found.append(
                f"{edge.source} ({names[source]}) imports {edge.target} ({names[target]}), "
                "a layer above it"
            )
        doors = [next((d for d in FRONT_DOORS if _under(n, d)), None) for n in edge.ends]
        if None not in doors and doors[0] != doors[1] and not _the_crossing(edge):
            found.append(f"{edge.source} imports {edge.target}: commands/ and serve/ stay apart")
    return found


def _the_crossing(edge: Edge) -> bool:
    return edge.source == CROSSING[0] and _under(edge.target, CROSSING[1])


def problems() -> tuple[list[str], list[tuple[str, list[str]]], dict[str, int], list[Edge]]:
    """What is wrong (the drawing, the modules it leaves out, the imports),
    the layers, each module's layer, and the imports."""
    layers = drawn_layers(README.read_text(encoding="utf-8"))
    rank, found = layer_of_each(layers)
    for name in MODULES:
        empty_init = MODULES[name].name == "__init__.py" and not imports_of(name)
        if name not in rank and not empty_init:
            found.append(f"{name} is in no layer of README's drawing")
    edges = every_import()
    found += check(rank, [layer for layer, _ in reversed(layers)], edges)
    return found, layers, rank, edges


def report() -> str:
    """The layers, top first, with their modules, and the imports checked."""
    found, layers, rank, edges = problems()
    lines = []
    for place, (layer, _) in reversed(list(enumerate(reversed(layers)))):
        members = sorted(name for name, r in rank.items() if r == place)
        shown = ", ".join(n.removeprefix("pybridge.") or "pybridge" for n in members)
        lines.append(f"{layer:<13} {len(members):>3} modules: {shown}")
    verdict = f"{len(found)} problems" if found else "each within its layer or below"
    lines.append(f"{len(edges)} imports among {len(MODULES)} modules: {verdict}")
    lines += [f"PROBLEM {problem}" for problem in found]
    return "\n".join(lines)


def test_every_module_imports_from_its_layer_or_below() -> None:
    found, layers, _, edges = problems()
    assert len(layers) >= 10, "README's drawing of the layers was not found"
    assert len(edges) > 100
    assert not found, "\n".join(found)


def test_the_drawing_is_read_as_drawn() -> None:
    layers = dict(drawn_layers(README.read_text(encoding="utf-8")))
    assert "cli.py" in layers["interfaces"]
    assert "search/kernel.py" in layers["kernel"]
    assert "bridge/" in layers["engines"]
    rank, _ = layer_of_each(list(layers.items()))
    assert rank["pybridge.errors"] < rank["pybridge.search.kernel"] < rank["pybridge.layout"]
    assert rank["pybridge.bridge.session"] == rank["pybridge.search.engine"]


def test_an_import_upwards_is_caught() -> None:
    """The check is not vacuous: an import of a module a layer above, or
    across the front doors, is a problem; the serve command may start the
    server; imports for type checking alone do not count."""
    rank, names = {"pybridge.model": 0, "pybridge.solver": 1}, ["values", "orchestrator"]
    assert check(rank, names, [Edge("pybridge.solver", "pybridge.model")]) == []
    [up] = check(rank, names, [Edge("pybridge.model", "pybridge.solver")])
    assert up.startswith("pybridge.model (values) imports pybridge.solver (orchestrator)")
    assert check({}, [], [Edge("pybridge.serve.api", "pybridge.commands.common")])
    assert check({}, [], [Edge("pybridge.commands.solve", "pybridge.serve.files")])
    assert not check({}, [], [Edge("pybridge.commands.serve", "pybridge.serve.app")])
    assert "pybridge.solver" in imports_of("pybridge.service.jobs")
    assert "pybridge.layout" not in imports_of("pybridge.search.kernel")  # TYPE_CHECKING only


def listed_modules(text: str) -> set[str]:
    """The modules docs/search.md's "Modules" names: a line indented under
    a package's own line (`search/` alone) names a module of that package;
    a package named on a line with its description stands for all of it."""
    section = text.split("\n## Modules\n", 1)[1]
    block = section.split("```text\n", 1)[1].split("```", 1)[0]
    listed: set[str] = set()
    parent = ""
    for line in block.splitlines():
        tokens = _TOKEN.findall(_ASIDE.sub("", line))
        indent = len(line) - len(line.lstrip())
        if indent == 2 and line.strip().endswith("/") and len(tokens) == 1:
            parent = tokens[0]  # a package's own line: its modules follow
            listed.add("pybridge." + parent.rstrip("/").replace("/", "."))
            continue
        if indent == 2:
            parent = ""
        prefix = parent if indent == 4 else ""
        for token in tokens:
            listed.update(_covered(prefix + token))
    return listed


def test_docs_modules_name_every_module() -> None:
    """docs/search.md's "Modules" leaves no module of pybridge/ out."""
    listed = listed_modules(SEARCH_MD.read_text(encoding="utf-8"))
    assert "pybridge.search.wdeg" in listed
    assert "pybridge.bridge.ffi" in listed
    missing = sorted(set(MODULES) - listed)
    assert not missing, f"docs/search.md's Modules leaves out {', '.join(missing)}"


if __name__ == "__main__":
    print(report())
    sys.exit(1 if problems()[0] else 0)
