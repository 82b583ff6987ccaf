"""docs/settings.md, generated from `lectern.settings.Settings`.

Every field: its environment variable, the other names it is also read from, its default,
the values it accepts and its description (the attribute's docstring in settings.py).

    python tools/settings_doc.py           # print the page
    python tools/settings_doc.py --write   # write docs/settings.md

tests/unit/test_settings.py fails when the page and `Settings` differ.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import sys
import typing
from pathlib import Path
from typing import Any

import annotated_types
from pydantic import AliasChoices
from pydantic.fields import FieldInfo

from lectern import settings as settings_module
from lectern.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "settings.md"

HEADER = """# Settings

Every setting Lectern reads, generated from `Settings` in `src/lectern/settings.py` by
`python tools/settings_doc.py --write` (a test fails when this page and the code differ).
Each is an environment variable; `LECTERN_CONFIG_FILE` names a YAML file that may set the
AI settings too (the environment wins). Some are also read under the name another
specification gives them ("also read from"); the `LECTERN_` name wins when both are set.

| Variable | Also read from | Default | Accepts | Description |
| --- | --- | --- | --- | --- |
"""


def _docstrings() -> dict[str, str]:
    """Each field's attribute docstring (the string right under it in the class body)."""
    tree = ast.parse(inspect.getsource(settings_module))
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "Settings":
            for this, after in zip(node.body, node.body[1:], strict=False):
                if (
                    isinstance(this, ast.AnnAssign)
                    and isinstance(this.target, ast.Name)
                    and isinstance(after, ast.Expr)
                    and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)
                ):
                    found[this.target.id] = " ".join(after.value.value.split())
    return found


def _names(name: str, field: FieldInfo) -> tuple[str, list[str]]:
    """The LECTERN_ variable and the other names the field is read from."""
    alias = field.validation_alias
    if isinstance(alias, AliasChoices):
        choices = [c for c in alias.choices if isinstance(c, str)]
        return choices[0], choices[1:]
    return f"LECTERN_{name.upper()}", []


def _default(field: FieldInfo) -> str:
    if field.default_factory is not None:
        return "computed"
    default = field.default
    if default is None:
        return "unset"
    if default == "":
        return "empty"
    if isinstance(default, Path):
        return f"`./{default}`" if not default.is_absolute() else f"`{default}`"
    if isinstance(default, bool):
        return f"`{str(default).lower()}`"
    return f"`{default}`"


def _accepts(field: FieldInfo) -> str:
    """Literal choices, or the type with its bounds."""
    annotation: Any = field.annotation
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) is typing.Literal:
        return ", ".join(f"`{a}`" for a in typing.get_args(annotation))
    if args and len(args) == 1:
        annotation = args[0]
        if typing.get_origin(annotation) is typing.Literal:
            return ", ".join(f"`{a}`" for a in typing.get_args(annotation))
    kind = {
        int: "integer",
        float: "number",
        bool: "`true` or `false`",
        str: "text",
        Path: "path",
    }.get(annotation, getattr(annotation, "__name__", str(annotation)))
    if kind == "SecretStr":
        kind = "text (secret)"
    bounds = []
    for item in field.metadata:
        if isinstance(item, annotated_types.Ge):
            bounds.append(f">= {item.ge}")
        if isinstance(item, annotated_types.Gt):
            bounds.append(f"> {item.gt}")
        if isinstance(item, annotated_types.Le):
            bounds.append(f"<= {item.le}")
        if isinstance(item, annotated_types.Lt):
            bounds.append(f"< {item.lt}")
        if getattr(item, "pattern", None):
            bounds.append(f"matching `{item.pattern}`")
        if isinstance(item, annotated_types.MinLen):
            bounds.append(f"at least {item.min_length} characters")
        if isinstance(item, annotated_types.MaxLen):
            bounds.append(f"at most {item.max_length} characters")
    return kind + (f" ({', '.join(bounds)})" if bounds else "")


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def render() -> str:
    """The whole page."""
    docstrings = _docstrings()
    rows = []
    for name, field in Settings.model_fields.items():
        variable, aliases = _names(name, field)
        rows.append(
            "| "
            + " | ".join(
                [
                    f"`{variable}`",
                    ", ".join(f"`{a}`" for a in aliases),
                    _cell(_default(field)),
                    _cell(_accepts(field)),
                    _cell(docstrings.get(name, "")),
                ]
            )
            + " |"
        )
    return HEADER + "\n".join(rows) + "\n"


def main() -> None:
    """Print the page, or write it with --write."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"write {PAGE.relative_to(ROOT)}")
    page = render()
    if parser.parse_args().write:
        PAGE.write_text(page, encoding="utf-8")
        print(f"wrote {PAGE.relative_to(ROOT)} ({len(Settings.model_fields)} settings)")
    else:
        sys.stdout.write(page)


if __name__ == "__main__":
    main()
