"""One module per table, for reads and writes alike: the architecture page names each table's module,
and no SQL anywhere else in the packages names the table."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "architecture.md").read_text()
SQL_TABLE = re.compile(r"\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+([a-z_]+)\b")


def _owners() -> dict[str, list[str]]:
    """Table → the module paths (under ``memgw/``) the page's table names for it."""
    owners: dict[str, list[str]] = {}
    for line in PAGE.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[0].startswith("`"):
            continue
        modules = [m for m in re.findall(r"`([a-z_/]+(?:\.py|/))`", cells[2]) if "/" in m]
        for table in re.findall(r"`([a-z_]+)`", cells[0]):
            owners[table] = modules
    return owners


def _sql_strings(tree: ast.AST) -> list[str]:
    """Every string literal that is not a docstring (an f-string's literal parts joined)."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            found.append(" ".join(v.value for v in node.values if isinstance(v, ast.Constant)))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            found.append(node.value)
    return found


def test_every_table_the_migrations_make_has_one_module_named() -> None:
    made, dropped = set(), set()
    for migration in (ROOT / "libs/common/src/memgw/common/db/migrations").glob("*.sql"):
        made |= set(re.findall(r"CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)", migration.read_text()))
        dropped |= set(re.findall(r"DROP TABLE (?:IF EXISTS )?([a-z_]+)", migration.read_text()))
    made -= dropped
    owners = _owners()
    assert made - {"schema_migrations"} <= set(owners), made - set(owners)
    assert all(owners[t] for t in made if t in owners)


def test_no_sql_names_a_table_outside_its_module() -> None:
    owners = _owners()
    strays = []
    for path in ROOT.glob("*/**/src/memgw/**/*.py"):
        module, source = str(path).split("/src/memgw/", 1)[1], path.read_text()
        if not SQL_TABLE.search(source):
            continue  # no SQL in it: not worth parsing
        for text in _sql_strings(ast.parse(source)):
            for table in SQL_TABLE.findall(text):
                if table in owners and not any(module.startswith(o) or module.endswith(o) for o in owners[table]):
                    strays.append(f"{module}: {table}")
    assert not strays
