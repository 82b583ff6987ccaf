"""The grammar of one step of the local model: one valid call of an offered tool, or an answer.

For the tools offered in a step, plus `answer` (the final reply, as a tool taking the text),
a JSON schema is built that is one of `{"name": <tool>, "arguments": <its input schema>}`;
llama-cpp-python's converter turns it into a GBNF grammar, framed by the `<tool_call>` tags
Qwen2.5 was trained on, and llama.cpp samples only tokens the grammar allows. So a step is
exactly one well-formed call of an offered tool with arguments its schema takes, or an
answer: never half a call, a call described in prose, or a second call. The answer is a tool
because a free-text branch lost to prose: offered "text or a call", the 1.5B model wrote
"To rate Dune 4 stars, you can use the `rate_book` function ..." for 5 of 6 requests (and
kept doing so with +4 on the `<tool_call>` logit); framed as a choice of tool, the decision
is the name it writes first. Each tool's `$defs` move to the root (prefixed with the tool's
name) so that its `$ref`s still resolve under `oneOf`.

The converter of llama-cpp-python 0.3 ignores `minimum` and `maximum` on integers (stars
1 to 5, limits, years), so a bounded integer goes through it as a placeholder constant and
comes out as a rule of its own that spells exactly the numbers in range. And llama.cpp
refuses (and llama-cpp-python 0.3.36 then crashes on) a grammar whose strings may run to
thousands of characters, so a string's `maxLength` is held to `STRING_CAP` in the grammar:
stricter than the schema, never looser, and longer than any call `call_max_tokens` allows.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from lectern.errors import ConfigurationError, LLMError

CALL_OPEN = "<tool_call>\n"
CALL_CLOSE = "\n</tool_call>"
_REF = "#/$defs/"
_ROOT_RULE = re.compile(r"^root ::=", re.MULTILINE)
_BOUNDED = re.compile(r'"\\"@@int:(-?\d+):(-?\d+)@@\\""')
STRING_CAP = 1000
"""The longest string argument the grammar spells (llama.cpp refuses 2,000)."""
_UNBOUNDED_MAX = 10**9 - 1
"""An integer with a minimum and no maximum stops at nine digits."""
ANSWER = "answer"
"""The name of the final reply as a tool (offered only to the local model, never run)."""
ANSWER_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": ANSWER,
        "description": (
            "Reply to the reader in plain text, with no tool: a greeting, thanks, a question "
            "back when the request is unclear, a refusal, or, once the tool results hold "
            "what was asked, the answer from them."
        ),
        "parameters": {
            "type": "object",
            "properties": {"text": {"type": "string", "minLength": 1, "maxLength": 800}},
            "required": ["text"],
            "additionalProperties": False,
        },
    },
}


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


def _decodable(node: Any) -> Any:
    """The schema as the converter can spell it: placeholders, strings held to `STRING_CAP`."""
    if isinstance(node, dict):
        if node.get("type") == "integer" and ("minimum" in node or "maximum" in node):
            low = int(node.get("minimum", -_UNBOUNDED_MAX))
            high = int(node.get("maximum", _UNBOUNDED_MAX))
            return {"const": f"@@int:{low}:{high}@@"}
        out = {key: _decodable(value) for key, value in node.items()}
        if node.get("type") == "string":
            out["maxLength"] = min(int(node.get("maxLength", STRING_CAP)), STRING_CAP)
        return out
    if isinstance(node, list):
        return [_decodable(item) for item in node]
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


def with_answer(tools: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The offered tools and `answer` (last, so the signatures' prefix stays the same).

    Raises:
        ConfigurationError: a real tool is called `answer`.
    """
    if any(_function(tool).get("name") == ANSWER for tool in tools):
        raise ConfigurationError(f"a tool is named {ANSWER!r}, the local model's final reply")
    return [*tools, ANSWER_TOOL]


def call_grammar(tools: Sequence[Mapping[str, Any]]) -> str:
    """The GBNF text: one framed call of one of `tools` (`with_answer` adds the reply).

    Raises:
        ConfigurationError: llama-cpp-python is not installed.
    """
    try:
        from llama_cpp.llama_grammar import json_schema_to_gbnf
    except ImportError:
        raise ConfigurationError(
            "grammar-constrained tool calls need llama-cpp-python: run `make local-llm`"
        ) from None
    schema = _decodable(call_schema(tools))
    converted = json_schema_to_gbnf(json.dumps(schema), ["name", "arguments"])
    converted = _BOUNDED.sub(
        lambda m: f"({integer_range(int(m.group(1)), int(m.group(2)))}) space", converted
    )
    body = _ROOT_RULE.sub("tc-json ::=", converted, count=1)
    head = f"root ::= {json.dumps(CALL_OPEN)} tc-json {json.dumps(CALL_CLOSE)}\n"
    return head + body


def compiled_grammar(tools: Sequence[Mapping[str, Any]], llama: Any) -> Any:
    """`call_grammar` as a `LlamaGrammar`, checked by llama.cpp's parser over `llama`'s vocabulary.

    llama-cpp-python 0.3 parses a grammar only when sampling starts, and crashes the process
    on one llama.cpp refuses; the check here turns that into an error first.

    Raises:
        LLMError: llama.cpp refuses the grammar.
    """
    text = call_grammar(tools)  # says what to install when llama-cpp-python is missing
    import llama_cpp
    from llama_cpp.llama_grammar import LlamaGrammar

    vocabulary = llama_cpp.llama_model_get_vocab(llama.model)
    sampler = llama_cpp.llama_sampler_init_grammar(vocabulary, text.encode(), b"root")
    if not sampler:
        names = ", ".join(str(_function(tool).get("name")) for tool in tools)
        raise LLMError(f"llama.cpp refuses the grammar of the tools {names}")
    llama_cpp.llama_sampler_free(sampler)
    return LlamaGrammar.from_string(text, verbose=False)
