"""The layout keeps its layers (docs/ARCHITECTURE.md): each module imports only
its own layer and the layers before it, the modules import no cycle, and no
private name crosses a module. Read from the source with `ast`, so the checks
fail on the commit that breaks them."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "rackety"

#: the layers in order; a module may import its own layer and those before it
LAYERS = ["base", "kernels", "lexicon", "game", "search", "players", "experiments", "study",
          "facade", "frontends", "entry"]
BASE = {"rackety.errors", "rackety.files", "rackety.reprs", "rackety.alphabet", "rackety.backends",
        "rackety.jitcache"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def layer(module: str) -> str:
    if module == "rackety":
        return "facade"  # the public API, which the front ends use
    if module == "rackety.__main__":
        return "entry"
    if module in BASE:
        return "base"
    top = module.split(".")[1]
    assert top in LAYERS, f"{module}: in no layer of docs/ARCHITECTURE.md"
    return top


def resolve(module: str, node: ast.ImportFrom) -> str:
    """The absolute module of a ``from ... import``."""
    if not node.level:
        return node.module or ""
    package = module.split(".") if MODULES[module].name == "__init__.py" else \
        module.split(".")[:-1]
    base = package[:len(package) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def type_checking_nodes(tree: ast.Module) -> set[int]:
    """The ids of the nodes under ``if TYPE_CHECKING:`` (imports for hints only)."""
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                hidden.update(id(n) for n in ast.walk(child))
    return hidden


@functools.cache
def tree_of(module: str) -> ast.Module:
    """The module's syntax tree, parsed once a session (the tests read it and
    change nothing)."""
    return ast.parse(MODULES[module].read_text(encoding="utf-8"))


@functools.cache
def nodes_of(module: str) -> tuple[ast.AST, ...]:
    """Every node of the module's tree (`ast.walk`'s order), listed once."""
    return tuple(ast.walk(tree_of(module)))


@functools.cache
def imports(module: str, hints: bool = False) -> tuple[tuple[int, str, str | None, bool], ...]:
    """(line, imported module, name imported from it or None, at top level) for
    every import of a rackety module that is not for type hints only (with
    ``hints``, those too)."""
    return tuple(_imports(module, hints))


def _imports(module: str, hints: bool) -> Iterator[tuple[int, str, str | None, bool]]:
    tree = tree_of(module)
    hidden = set() if hints else type_checking_nodes(tree)
    top = {id(n) for n in tree.body}
    for node in nodes_of(module):
        if id(node) in hidden:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "rackety":
                    yield node.lineno, alias.name, None, id(node) in top
        elif isinstance(node, ast.ImportFrom):
            target = resolve(module, node)
            if target.split(".")[0] != "rackety":
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                if sub in MODULES:
                    yield node.lineno, sub, None, id(node) in top
                else:
                    yield node.lineno, target, alias.name, id(node) in top


def owner(target: str) -> str:
    """The module that a dotted import names (a package's ``__init__`` or a module)."""
    while target not in MODULES and "." in target:
        target = target.rsplit(".", 1)[0]
    return target


def test_every_module_is_in_a_layer():
    assert {layer(m) for m in MODULES} <= set(LAYERS)
    assert "rackety.kernels.generate" in MODULES and "rackety.frontends.cli" in MODULES


def test_each_layer_imports_only_its_own_and_the_layers_before_it():
    wrong = []
    for module in MODULES:
        mine = LAYERS.index(layer(module))
        for line, target, _, _ in imports(module):
            theirs = layer(owner(target))
            if LAYERS.index(theirs) > mine:
                wrong.append(f"{module}:{line} ({layer(module)}) imports {target} ({theirs})")
    assert not wrong, "\n".join(wrong)


def test_kernels_import_only_kernels():
    """...but the decorator, which hands numba the folder of compiled kernels."""
    wrong = [f"{m}:{line} imports {target}" for m in MODULES if layer(m) == "kernels"
             for line, target, _, _ in imports(m) if layer(owner(target)) != "kernels"
             and (m, owner(target)) != ("rackety.kernels.jit", "rackety.jitcache")]
    assert not wrong, "\n".join(wrong)


def graph(top_only: bool, hints: bool = False) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {m: set() for m in MODULES}
    for module in MODULES:
        for _, target, _, top in imports(module, hints):
            dest = owner(target)
            if dest != module and (top or not top_only) and not module.startswith(dest + "."):
                edges[module].add(dest)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in edges:
        if v not in index:
            visit(v)
    return found


def test_the_reference_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("top_only, hints", [(True, False), (False, False), (False, True)],
                         ids=["top-level", "with-local", "with-type-hints"])
def test_no_import_cycles(top_only, hints):
    """No cycle among modules, counting the imports inside functions too (a
    function-local import that closes a cycle is still a cycle), and those for
    type hints only: the board imports notation, the pictures, the kernels'
    data and the generator, which read a position through its protocol
    (`rackety.game.position.Position`) and import no board."""
    assert cycles(graph(top_only, hints)) == []


def defined_names(tree: ast.Module) -> set[str]:
    """Every name a module defines: functions, classes, assignments, attributes
    set on ``self``/``cls``/objects, fields, parameters."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add(node.asname or node.name.split(".")[0])
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and node.value.isidentifier():
            names.add(node.value)  # setattr(obj, "_name", ...), __slots__
    return names


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


#: numba's private names that rackety needs, where numba has no public way:
#: adding a cache locator, and reading a kernel's cache index to load it
NUMBA_PRIVATE = {("rackety.kernels.jit", n) for n in ("_CacheImpl", "_CacheLocator",
                                                      "_locator_classes")} | \
    {("rackety.frontends.compile", n) for n in ("_cache", "_cache_file", "_load_index")}


def test_no_private_name_crosses_a_module():
    """No ``from module import _name``, and no ``thing._name`` unless this module
    defines ``_name`` itself (its own class's attribute); other libraries' own
    private names (``os._exit``, `NUMBA_PRIVATE`) aside."""
    wrong = []
    for module in MODULES:
        tree = tree_of(module)
        for line, target, name, _ in imports(module):
            if name is not None and private(name):
                wrong.append(f"{module}:{line} imports {name} from {target}")
        own = defined_names(tree)
        stdlib = {a.asname or a.name for n in nodes_of(module) if isinstance(n, ast.Import)
                  for a in n.names if a.name.split(".")[0] != "rackety"}
        for node in nodes_of(module):
            if isinstance(node, ast.Attribute) and private(node.attr) \
                    and node.attr not in own and not (isinstance(node.value, ast.Name)
                                                      and node.value.id in stdlib) \
                    and (module, node.attr) not in NUMBA_PRIVATE:
                wrong.append(f"{module}:{node.lineno} uses {ast.unparse(node)}")
    assert not wrong, "\n".join(wrong)


def test_test_helpers_are_not_in_src():
    """Test-only code lives in tests/: no module of the package imports pytest
    or hypothesis."""
    wrong = []
    for module in MODULES:
        for node in nodes_of(module):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            wrong += [f"{module}: imports {n}" for n in names
                      if n.split(".")[0] in ("pytest", "hypothesis")]
    assert not wrong, "\n".join(wrong)


#: a KWG node's fields read with its bits (`kernels.bits`), outside the two
#: modules that hold its accessors
NODE_BITS = re.compile(r">>\s*(24|TILE_SHIFT)\b|&\s*~?\s*(ARC|IS_END|ACCEPTS)\b"
                       r"|\b(0x3FFFFF|0x400000|0x800000)\b", re.IGNORECASE)
NODE_MODULES = {"rackety.kernels.nodes", "rackety.kernels.bits"}


def node_bit_operations(text: str) -> list[str]:
    return [f"{i}: {line.strip()}" for i, line in enumerate(text.splitlines(), 1)
            if NODE_BITS.search(line.split("#")[0])]


def test_the_node_scan_finds_inline_bit_operations():
    assert node_bit_operations("t = node >> 24\nif node & IS_END:\nx = (n & ~ARC)\n"
                               "ok = 1 << 24  # not node >> 24\ny = a & 0x3fffff\n") == [
        "1: t = node >> 24", "2: if node & IS_END:", "3: x = (n & ~ARC)",
        "5: y = a & 0x3fffff"]


def test_node_fields_are_read_through_the_node_modules_only():
    """A KWG node's tile, arc and flags are read with `kernels.nodes` (kernels)
    or `kernels.bits` (plain Python) only, not with their bits inline."""
    wrong = [f"{module}:{hit}" for module, path in MODULES.items() if module not in NODE_MODULES
             for hit in node_bit_operations(path.read_text(encoding="utf-8"))]
    assert not wrong, "\n".join(wrong)


#: the generator's innermost recursion, which takes raw addresses (`kernels.raw`)
#: and its running totals one by one: numba would pass each array or tuple as
#: many words at every level
RECURSION = {"rackety.kernels.generate._take"}
MAX_KERNEL_PARAMETERS = 12


def kernel_parameters() -> dict[str, int]:
    """Every function decorated with ``njit`` and its number of parameters."""
    found = {}
    for module in MODULES:
        for node in nodes_of(module):
            if isinstance(node, ast.FunctionDef) and any(
                    "njit" in ast.unparse(d) for d in node.decorator_list):
                a = node.args
                found[f"{module}.{node.name}"] = len(a.posonlyargs + a.args + a.kwonlyargs)
    return found


def test_no_kernel_takes_more_than_twelve_parameters():
    """The kernels take their arrays in named tuples (`kernels.fields.Consts`,
    `Output`, `Scratch`, `Buffers`, `Request`, `Events`, `GameState`;
    `search.endgame.Arrays` ...), not one by one, but for the generator's
    innermost recursion."""
    counts = kernel_parameters()
    assert counts["rackety.search.endgame._negamax"] <= MAX_KERNEL_PARAMETERS
    wrong = {name: k for name, k in counts.items()
             if k > MAX_KERNEL_PARAMETERS and name not in RECURSION}
    assert not wrong, wrong
    assert all(counts[name] > MAX_KERNEL_PARAMETERS for name in RECURSION)
