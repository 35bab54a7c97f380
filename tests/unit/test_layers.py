"""The engine's modules import one another without a circle: not at module level, and not inside
functions either (a function-level import that closes a circle only hides it until it runs).
pyproject.toml's import-linter contract says which way each layer may import; this test reads
every import statement itself, so it needs nothing installed."""

from __future__ import annotations

import ast
from pathlib import Path

import atlas_site

PACKAGE = Path(atlas_site.__file__).resolve().parent


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(name: str, path: Path, known: set[str]) -> dict[str, int]:
    """The package's modules one file imports, anywhere in it, each with the first line that does."""
    found: dict[str, int] = {}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            targets = [base] + [
                f"{base}.{alias.name}" for alias in node.names
            ]  # `from . import x`: x may be a module
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.setdefault(target, node.lineno)
    return found


def import_graph() -> dict[str, dict[str, int]]:
    files = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
    return {name: imported(name, path, set(files)) for name, path in files.items()}


def circles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in graph[module]:
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in graph:
        if module not in index:
            visit(module)
    return found


def test_the_graph_sees_function_level_and_relative_imports():
    graph = import_graph()
    assert "atlas_site.diagnostics" in graph["atlas_site.cache"], "cache.py's imports, at any level"
    assert "atlas_site.model.book" in graph["atlas_site.model"], "`from .book import …` in a package"
    assert graph["atlas_site.__main__"] == {"atlas_site.cli": graph["atlas_site.__main__"]["atlas_site.cli"]}


def test_the_circle_finder_finds_a_circle_through_a_function_level_import():
    graph = {"a": {"b": 1}, "b": {"c": 3}, "c": {"a": 48}, "d": {"a": 2}}
    assert circles(graph) == [["a", "b", "c"]]


def test_no_module_of_the_engine_imports_itself_back_at_any_level():
    graph = import_graph()
    found = circles(graph)
    lines = []
    for component in found:
        members = set(component)
        lines.append(
            f"{len(component)} modules: "
            + "; ".join(
                f"{module}:{line} -> {target}"
                for module in component
                for target, line in sorted(graph[module].items())
                if target in members
            )
        )
    assert not found, "\n".join(lines)


def test_every_folder_of_the_engine_is_a_package_a_wheel_carries():
    """setuptools packs only folders with an __init__.py (translations/ had none: a wheel lacked it,
    and import-linter could not see it as a layer)."""
    folders = {path.parent for path in PACKAGE.rglob("*.py") if "__pycache__" not in path.parts}
    assert sorted(str(f.relative_to(PACKAGE)) for f in folders if not (f / "__init__.py").is_file()) == []


def third_party_imports() -> dict[str, str]:
    """Every top-level module outside the standard library and the engine that the engine imports,
    anywhere (a lazy import inside a function too), with the first file:line that does."""
    import sys

    found: dict[str, str] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top != "atlas_site" and top not in sys.stdlib_module_names:
                    found.setdefault(top, f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    return found


def test_every_library_the_engine_imports_is_a_dependency_it_declares():
    """What a wheel installed elsewhere needs is what pyproject.toml declares (the wheel test runs its
    copy beside this environment's libraries, so a dependency missing from the list would not show
    there): each third-party import maps to a declared distribution, the browser's to the extra."""
    import importlib.metadata
    import re
    import tomllib

    project = tomllib.loads((PACKAGE.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = {
        re.split(r"[\[<>=!~;\s]", requirement, maxsplit=1)[0].lower().replace("_", "-")
        for requirement in project["dependencies"] + project["optional-dependencies"]["browser"]
    }
    distributions = importlib.metadata.packages_distributions()
    imports = third_party_imports()
    assert {"yaml", "jinja2", "playwright"} <= set(imports), "the reading of imports found the known ones"
    undeclared = [
        f"{where}: imports {module} ({', '.join(distributions.get(module, ['no installed distribution']))})"
        for module, where in sorted(imports.items())
        if not {d.lower().replace("_", "-") for d in distributions.get(module, [])} & declared
    ]
    assert undeclared == [], "\n".join(undeclared)
