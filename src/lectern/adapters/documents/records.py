"""Records (JSON, JSONL, JSONL.gz, CSV, Markdown with a TOML front block) shaped into documents.

A YAML mapping shapes them (its schema and loading: `record_mappings.py`).
The mapping names the id, the title and text templates, the metadata fields searches may
filter on, the reference URLs, records to skip, and joins (e.g. ATT&CK mitigations and
groups from the relationships file). `{field.path}` in a template is a field; a template
line whose fields are all empty is left out. A field named by the mapping that no record
has is an error (a typo would otherwise index empty text); a record without an id is
skipped and counted. `constants` give every record of a mapping the same field (its
`@source_type`); `cvss` names a field holding a CVSS vector whose base score and severity
become `@cvss_score`, `@severity` and `@cvss_version` (an unreadable vector leaves them empty
and adds a note to the ingest report).
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import json
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

from markdown_it import MarkdownIt

from lectern.adapters.documents.cvss_scores import CvssScore, score_vector
from lectern.adapters.documents.html import html_text
from lectern.adapters.documents.record_mappings import JoinSpec, RecordMapping
from lectern.domain.books import JSONValue
from lectern.domain.documents import Block, ExtractedDocument, SkippedFile
from lectern.errors import MappingError

_PLACEHOLDER = re.compile(r"\{([A-Za-z_@][\w.*\[\]@-]*)\}")
_INDEX = re.compile(r"\[(\d+|\*)\]")
MAX_RECORD_FILE_BYTES = 2_000_000_000


_MISSING = object()
_FALSE = ("", "False", "false")


def _truthy(row: Any, fields: Iterable[str]) -> bool:
    """True when any of these fields holds something other than empty or false."""
    return any(_as_text(get_path(row, f)) not in _FALSE for f in fields)


def get_path(record: Any, path: str) -> Any:
    """A dotted field path (`a.b`, `a.0.b`, `a[0].b`, `a.*.b`); `_MISSING` when absent."""
    parts = _INDEX.sub(lambda m: "." + m.group(1), path).split(".")
    values: list[Any] = [record]
    spread = False
    for part in (p for p in parts if p):
        following: list[Any] = []
        for value in values:
            if part == "*":
                if isinstance(value, list):
                    following.extend(value)
                spread = True
            elif isinstance(value, dict):
                if part in value:
                    following.append(value[part])
            elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
                following.append(value[int(part)])
        values = following
        if not values:
            return [] if spread else _MISSING
    if spread:
        return [v for v in values if v is not None]
    return values[0]


def _plain(value: Any) -> JSONValue:
    if value is _MISSING or value is None:
        return None
    if isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, list):
        return [_plain(v) for v in value if v is not None and not isinstance(v, dict | list)]
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _as_text(value: Any) -> str:
    if value is _MISSING or value is None or value is False:
        return ""
    if isinstance(value, list):
        return ", ".join(_as_text(v) for v in value if _as_text(v))
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False)
    return str(value).strip()


class _Fields:
    """Looks up fields of one record, its joins and `@id`; remembers which paths were found."""

    def __init__(self, record: Any, extra: Mapping[str, Any], seen: set[str]) -> None:
        self.record = record
        self.extra = extra
        self.seen = seen

    def get(self, path: str) -> Any:
        if path in self.extra:
            self.seen.add(path)
            return self.extra[path]
        value = get_path(self.record, path)
        if value is not _MISSING and value != []:
            self.seen.add(path)
        return value


def _fill(line: str, values: Mapping[str, str]) -> str:
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], line)


def render(template: str, fields: _Fields) -> str:
    """Fill a template; lines whose every field is empty are left out."""
    lines = []
    for line in template.splitlines():
        names = _PLACEHOLDER.findall(line)
        values = {name: _as_text(fields.get(name)) for name in names}
        if names and not any(values.values()):
            continue
        lines.append(_fill(line, values))
    return "\n".join(lines).strip()


def _open_text(path: Path) -> IO[str]:
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open(encoding="utf-8", newline="")


def _format_of(path: Path, declared: str | None) -> str:
    if declared:
        return declared
    suffixes = [s.lower() for s in path.suffixes if s.lower() != ".gz"]
    kind = suffixes[-1].lstrip(".") if suffixes else ""
    if kind in ("json", "jsonl", "csv"):
        return kind
    if kind == "ndjson":
        return "jsonl"
    raise MappingError(
        f"{path.name}: cannot tell its format: set `format` (json, jsonl, csv or toml-markdown)"
    )


_TOML_FENCE = re.compile(r"\A\s*```toml\s*\n(?P<toml>.*?)\n```\s*\n?(?P<body>.*)\Z", re.S)
MAX_MARKDOWN_RECORD_BYTES = 1_000_000


def toml_markdown_record(text: str) -> dict[str, Any]:
    """A RustSec-style advisory: the TOML front block's tables, `title` and `description`.

    The title is the body's first `# ` heading; the description is the rest of the body as
    plain text (rendered by markdown-it: link targets dropped, wrapped lines joined, one
    line per block), so snippets quote what a reader sees.
    """
    match = _TOML_FENCE.match(text)
    if match is None:
        raise ValueError("no ```toml front block at the top")
    record: dict[str, Any] = tomllib.loads(match.group("toml"))
    lines = match.group("body").strip().splitlines()
    title = ""
    if lines and lines[0].startswith("# "):
        title = lines.pop(0)[2:].strip()
    record["title"] = title
    body = "\n".join(lines).strip()
    record["description"] = html_text(MarkdownIt("commonmark").render(body))[0].strip()
    return record


def read_rows(path: Path, kind: str, records: str | None = None) -> Iterator[tuple[int, Any]]:
    """(line or position, record) of a records file; malformed input raises MappingError."""
    if kind == "toml-markdown":
        try:
            if path.stat().st_size > MAX_MARKDOWN_RECORD_BYTES:
                raise MappingError(f"{path.name}: larger than {MAX_MARKDOWN_RECORD_BYTES} bytes")
            yield 1, toml_markdown_record(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            raise MappingError(f"cannot read {path.name}: {error}") from None
        except (ValueError, tomllib.TOMLDecodeError) as error:
            yield 1, f"not an advisory ({str(error)[:120]})"
        return
    try:
        with _open_text(path) as handle:
            if kind == "jsonl":
                for number, line in enumerate(handle, start=1):
                    if line.strip():
                        try:
                            yield number, json.loads(line)
                        except json.JSONDecodeError as error:
                            raise MappingError(
                                f"{path.name}:{number}: not JSON ({error.msg})"
                            ) from None
            elif kind == "csv":
                for number, row in enumerate(csv.DictReader(handle), start=2):
                    yield number, row
            else:
                try:
                    data = json.load(handle)
                except json.JSONDecodeError as error:
                    raise MappingError(
                        f"{path.name}: not JSON ({error.msg} at line {error.lineno})"
                    ) from None
                items = get_path(data, records) if records else data
                if items is _MISSING or not isinstance(items, list):
                    where = f"`{records}`" if records else "the top level"
                    raise MappingError(f"{path.name}: expected a list of records at {where}")
                yield from enumerate(items, start=1)
    except (OSError, EOFError, UnicodeDecodeError, gzip.BadGzipFile) as error:
        raise MappingError(f"cannot read {path.name}: {error}") from None


class RecordsReader:
    """Records of one or more files, shaped by a mapping."""

    def __init__(self, mapping: RecordMapping) -> None:
        """Use this mapping."""
        self.mapping = mapping

    def files(self, path: Path) -> list[Path]:
        """The records files: the given file, or the mapping's `files` within the folder."""
        if path.is_file():
            return [path]
        if not self.mapping.files:
            raise MappingError(
                f"{path} is a folder: name its records files in the mapping's `files`"
            )
        found = sorted(
            {p for pattern in self.mapping.files for p in path.glob(pattern) if p.is_file()}
        )
        if not found:
            raise MappingError(f"no file in {path} matches {', '.join(self.mapping.files)}")
        return found

    def read(self, path: Path) -> Iterator[ExtractedDocument | SkippedFile]:
        """Documents (one per record) and skipped records; mapping errors raise."""
        mapping = self.mapping
        folder = path if path.is_dir() else path.parent
        joins = {name: self._join(folder, spec) for name, spec in mapping.joins.items()}
        seen: set[str] = set()
        used: set[str] = set()
        any_record = False
        for file in self.files(path):
            kind = _format_of(file, mapping.format)
            for number, record in read_rows(file, kind, mapping.records):
                any_record = True
                where = f"{file.name} record {number}"
                if kind == "toml-markdown":
                    where = file.relative_to(folder).as_posix() if file != path else file.name
                if isinstance(record, str):
                    yield SkippedFile(where, record)
                    continue
                if not isinstance(record, dict):
                    yield SkippedFile(where, "not an object")
                    continue
                if _truthy(record, mapping.skip_if):
                    flags = ", ".join(mapping.skip_if)
                    yield SkippedFile(where, f"skipped by the mapping ({flags})")
                    continue
                extra: dict[str, Any] = {f"@{k}": v for k, v in mapping.constants.items()}
                for name, (spec, table) in joins.items():
                    key = _as_text(get_path(record, spec.key))
                    extra[name] = table.get(key, [])
                fields = _Fields(record, extra, seen)
                record_id = self._record_id(fields)
                if not record_id:
                    yield SkippedFile(
                        where, f"no id (`{mapping.id or '+'.join(mapping.id_from)}` is empty)"
                    )
                    continue
                if record_id in used:
                    yield SkippedFile(where, f"duplicate id {record_id}")
                    continue
                used.add(record_id)
                yield self._document(record_id, fields)
        if any_record:
            self._check_fields(seen)

    def _record_id(self, fields: _Fields) -> str:
        mapping = self.mapping
        if mapping.id:
            return _as_text(fields.get(mapping.id))
        parts = [_as_text(fields.get(f)) for f in mapping.id_from]
        if not any(parts):
            return ""
        return hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()[:16]

    def _document(self, record_id: str, fields: _Fields) -> ExtractedDocument:
        mapping = self.mapping
        fields.extra = {**fields.extra, "@id": record_id}
        notes: tuple[str, ...] = ()
        if mapping.cvss:
            vector = _as_text(fields.get(mapping.cvss))
            scored = score_vector(vector) if vector else None
            if isinstance(scored, CvssScore):
                fields.extra.update(
                    {
                        "@cvss_score": scored.score,
                        "@severity": scored.severity,
                        "@cvss_version": scored.version,
                    }
                )
            else:
                fields.extra.update({"@cvss_score": None, "@severity": None, "@cvss_version": None})
                if scored is not None:
                    notes = (scored,)
        text = render(mapping.text, fields)
        title = render(mapping.title, fields) or record_id
        metadata: dict[str, JSONValue] = {"id": record_id}
        for name, spec in mapping.filters.items():
            metadata[name] = _plain(fields.get(spec.field))
        for name in mapping.joins:
            metadata[name] = _plain(fields.get(name))
        if mapping.url:
            metadata["url"] = render(mapping.url, fields) or None
        if mapping.references is not None:
            metadata["references"] = self._references(fields.get(mapping.references.field))
        return ExtractedDocument(
            uri=record_id,
            title=title,
            text=text,
            kind="record",
            cite_as=render(mapping.cite_as, fields) or record_id,
            blocks=(Block(0, len(text)),) if text.strip() else (),
            metadata=metadata,
            notes=notes,
            split=mapping.split,
        )

    def _references(self, value: Any) -> list[JSONValue]:
        spec = self.mapping.references
        items: Iterable[Any]
        if isinstance(value, list):
            items = value
        elif value is _MISSING or value is None:
            items = []
        elif spec is not None and spec.separator:
            items = str(value).split(spec.separator)
        else:
            items = [value]
        urls: list[JSONValue] = []
        for item in items:
            for url in re.findall(r"https?://[^\s;,<>\"']+", _as_text(item)):
                if url not in urls:
                    urls.append(url.rstrip(".)"))
        return urls

    def _check_fields(self, seen: set[str]) -> None:
        mapping = self.mapping
        named = set()
        for template in (mapping.title, mapping.text, mapping.cite_as, mapping.url or ""):
            named.update(_PLACEHOLDER.findall(template))
        named.update(s.field for s in mapping.filters.values())
        named.update(mapping.id_from)
        if mapping.id:
            named.add(mapping.id)
        if mapping.references is not None:
            named.add(mapping.references.field)
        missing = sorted(
            n
            for n in named
            if n not in seen
            and not n.startswith("@")
            and n not in mapping.joins
            and n not in mapping.optional
        )
        if missing:
            raise MappingError(
                "the mapping names fields that no record has: "
                + ", ".join(missing)
                + " (check their spelling against the records)"
            )

    def _join(self, folder: Path, spec: JoinSpec) -> tuple[JoinSpec, dict[str, list[str]]]:
        names: dict[str, str] = {}
        for pattern in spec.lookup:
            for file in sorted(folder.glob(pattern)):
                for _, row in read_rows(file, _format_of(file, None)):
                    if not isinstance(row, dict) or _truthy(row, spec.skip_if):
                        continue
                    name = _as_text(get_path(row, spec.field))
                    if name and "id" in row:
                        names[str(row["id"])] = name
        table: dict[str, list[str]] = {}
        files = sorted(folder.glob(spec.file))
        if not files:
            raise MappingError(f"the join file {spec.file} is not in {folder}")
        for file in files:
            for _, row in read_rows(file, _format_of(file, None)):
                if not isinstance(row, dict):
                    continue
                if any(_as_text(get_path(row, k)) != v for k, v in spec.where.items()):
                    continue
                if _truthy(row, spec.skip_if):
                    continue
                related = names.get(_as_text(get_path(row, spec.take)))
                key = _as_text(get_path(row, spec.link))
                if related and key:
                    bucket = table.setdefault(key, [])
                    if related not in bucket:
                        bucket.append(related)
        for values in table.values():
            values.sort()
        return spec, table
