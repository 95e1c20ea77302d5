"""Each vision module imports only downwards: no circle of imports, counting those inside functions, and never
the companion."""

from __future__ import annotations

import ast
from pathlib import Path

VISION = Path(__file__).resolve().parents[2] / "vision"


def module_name(path: Path) -> str:
    parts = path.relative_to(VISION.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> set[str]:
    """Every module `path` imports, at the top or inside a function, relative imports resolved."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)  # `from . import x` names a module
    return found


def graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in VISION.rglob("*.py")}
    return {name: {m for m in imports_of(path) if m in modules and m != name} for name, path in modules.items()}


def test_no_vision_module_imports_one_that_imports_it_back():
    edges = graph()
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            raise AssertionError("import circle: " + " -> ".join(path[path.index(name):] + [name]))
        if name in done:
            return
        for other in sorted(edges[name]):
            visit(other, path + [name])
        done.add(name)

    for name in sorted(edges):
        visit(name, [])


def test_the_classifier_does_not_import_teaching_and_teaching_not_the_pipeline():
    edges = graph()
    assert "vision.enrol" not in edges["vision.classify"]
    assert "vision.pipeline" not in edges["vision.enrol"]
    assert "vision.enrol" in edges["vision.enrol_cli"] and "vision.pipeline" in edges["vision.enrol_cli"]


def test_vision_never_imports_the_companion():
    for path in VISION.rglob("*.py"):
        assert not any(m == "companion" or m.startswith("companion.") for m in imports_of(path)), path
