"""The grammar of one step of the local model: one valid call of an offered tool, or an answer.

For the tools offered in a step, a JSON schema is built that is one of
`{"name": <tool>, "arguments": <that tool's input schema>}` per tool; llama-cpp-python's
converter turns it into a GBNF grammar, framed by the `<tool_call>` tags Qwen2.5 was trained
on, and llama.cpp samples only tokens the grammar allows. The other branch is a final answer:
text with no `<` that does not open with `{`, `[` or a code fence, so neither half a call,
nor a bare JSON call, nor a second call can be written. Each tool's `$defs` move to the
root (prefixed with the tool's name) so that its `$ref`s still resolve under `oneOf`.

The converter of llama-cpp-python 0.3 ignores `minimum` and `maximum` on integers (stars
1 to 5, limits, years), so a bounded integer goes through it as a placeholder constant and
comes out as a rule of its own that spells exactly the numbers in range.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from lectern.errors import ConfigurationError

CALL_OPEN = "<tool_call>\n"
CALL_CLOSE = "\n</tool_call>"
_REF = "#/$defs/"
_ROOT_RULE = re.compile(r"^root ::=", re.MULTILINE)
_BOUNDED = re.compile(r'"\\"@@int:(-?\d+):(-?\d+)@@\\""')
_UNBOUNDED_MAX = 10**9 - 1
"""An integer with a minimum and no maximum stops at nine digits."""
ANSWER_RULES = (
    # A final answer: no tag anywhere, and not a JSON value or a fenced block at the start.
    "tc-answer ::= [^<{`\\[ \\t\\n] [^<]*\n"
)


def _function(tool: Mapping[str, Any]) -> Mapping[str, Any]:
    """The function part of a tool in the OpenAI format (or the tool itself)."""
    inner = tool.get("function")
    return inner if isinstance(inner, Mapping) else tool


def _renamed_refs(node: Any, renames: Mapping[str, str]) -> Any:
    if isinstance(node, dict):
        out = {key: _renamed_refs(value, renames) for key, value in node.items()}
        ref = out.get("$ref")
        if isinstance(ref, str):
            for old, new in renames.items():
                if ref == old:
                    out["$ref"] = new
        return out
    if isinstance(node, list):
        return [_renamed_refs(item, renames) for item in node]
    return node


def _same_length(low: str, high: str) -> str:
    """A GBNF expression for the numerals from `low` to `high`, both of one length."""
    if low == high:
        return f'"{low}"'
    if len(low) == 1:
        return f"[{low}-{high}]"
    if low[0] == high[0]:
        return f'"{low[0]}" ({_same_length(low[1:], high[1:])})'
    rest = len(low) - 1
    parts = []
    first, last = int(low[0]), int(high[0])
    if low[1:] != "0" * rest:
        parts.append(f'"{low[0]}" ({_same_length(low[1:], "9" * rest)})')
        first += 1
    tail = None
    if high[1:] != "9" * rest:
        tail = f'"{high[0]}" ({_same_length("0" * rest, high[1:])})'
        last -= 1
    if first <= last:
        digit = f'"{first}"' if first == last else f"[{first}-{last}]"
        parts.append(" ".join([digit] + ["[0-9]"] * rest))
    if tail is not None:
        parts.append(tail)
    return " | ".join(f"({part})" for part in parts)


def _natural_range(low: int, high: int) -> list[str]:
    """Alternatives for the integers `low..high`, 0 <= low <= high, by numeral length."""
    found = []
    for length in range(len(str(low)), len(str(high)) + 1):
        start = max(low, 10 ** (length - 1) if length > 1 else 0)
        end = min(high, 10**length - 1)
        if start <= end:
            found.append(_same_length(str(start), str(end)))
    return found


def integer_range(low: int, high: int) -> str:
    """A GBNF expression matching exactly the JSON integers from `low` to `high`."""
    alternatives = []
    if low < 0:
        negative = _natural_range(max(1, -high), -low)
        alternatives.append('"-" (' + " | ".join(f"({a})" for a in negative) + ")")
    if high >= 0:
        alternatives += _natural_range(max(0, low), high)
    return " | ".join(f"({a})" for a in alternatives)


def _bounded_integers(node: Any) -> Any:
    """Integers with a minimum or a maximum as placeholder constants (see the module doc)."""
    if isinstance(node, dict):
        if node.get("type") == "integer" and ("minimum" in node or "maximum" in node):
            low = int(node.get("minimum", -_UNBOUNDED_MAX))
            high = int(node.get("maximum", _UNBOUNDED_MAX))
            return {"const": f"@@int:{low}:{high}@@"}
        return {key: _bounded_integers(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_bounded_integers(item) for item in node]
    return node


def call_schema(tools: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """One JSON schema for one call of any of `tools` (OpenAI function format).

    Raises:
        ConfigurationError: a tool has no name, or two tools share one.
    """
    branches: list[dict[str, Any]] = []
    definitions: dict[str, Any] = {}
    seen: set[str] = set()
    for tool in tools:
        function = _function(tool)
        name = function.get("name")
        if not isinstance(name, str) or not name or name in seen:
            raise ConfigurationError(
                f"a tool offered to the local model is unnamed or twice: {name!r}"
            )
        seen.add(name)
        parameters = copy.deepcopy(dict(function.get("parameters") or {"type": "object"}))
        local = {**parameters.pop("definitions", {}), **parameters.pop("$defs", {})}
        renames = {}
        for key in local:
            renames[f"#/$defs/{key}"] = f"{_REF}{name}--{key}"
            renames[f"#/definitions/{key}"] = f"{_REF}{name}--{key}"
        parameters = _renamed_refs(parameters, renames)
        for key, value in local.items():
            definitions[f"{name}--{key}"] = _renamed_refs(value, renames)
        branches.append(
            {
                "type": "object",
                "properties": {"name": {"const": name}, "arguments": parameters},
                "required": ["name", "arguments"],
                "additionalProperties": False,
            }
        )
    schema: dict[str, Any] = {"oneOf": branches}
    if definitions:
        schema["$defs"] = definitions
    return schema


def call_grammar(tools: Sequence[Mapping[str, Any]]) -> str:
    """The GBNF text: one framed call of an offered tool, or a final answer.

    Raises:
        ConfigurationError: llama-cpp-python is not installed.
    """
    try:
        from llama_cpp.llama_grammar import json_schema_to_gbnf
    except ImportError:
        raise ConfigurationError(
            "grammar-constrained tool calls need llama-cpp-python: run `make local-llm`"
        ) from None
    schema = _bounded_integers(call_schema(tools))
    converted = json_schema_to_gbnf(json.dumps(schema), ["name", "arguments"])
    converted = _BOUNDED.sub(
        lambda m: f"({integer_range(int(m.group(1)), int(m.group(2)))}) space", converted
    )
    body = _ROOT_RULE.sub("tc-json ::=", converted, count=1)
    head = f"root ::= {json.dumps(CALL_OPEN)} tc-json {json.dumps(CALL_CLOSE)} | tc-answer\n"
    return head + ANSWER_RULES + body


def compiled_grammar(tools: Sequence[Mapping[str, Any]]) -> Any:
    """`call_grammar` parsed by llama.cpp (a `LlamaGrammar`)."""
    text = call_grammar(tools)  # says what to install when llama-cpp-python is missing
    from llama_cpp import LlamaGrammar

    return LlamaGrammar.from_string(text, verbose=False)
