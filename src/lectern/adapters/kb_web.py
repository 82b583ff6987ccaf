"""Support-bot web sources: pages fetched with httpx, main text by selectolax, kept on disk.

A refresh sends the stored ETag (`If-None-Match`) and Last-Modified (`If-Modified-Since`);
a 304 keeps the stored copy. Bodies are streamed and cut off at the size cap; a body that is
not HTML (or XHTML), a redirect loop, a timeout or an unreachable host is a failed fetch with
its reason, and a page fetched before stays as it was.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path

import httpx

from lectern.adapters.documents.html import html_document
from lectern.domain.kb_sources import TEAM_SUFFIXES, WebFetch, WebPage, check_team_name

HTML_TYPES = ("text/html", "application/xhtml+xml")
USER_AGENT = "lectern-kb-sync (+https://github.com/lectern)"


class HttpxWebPageFetcher:
    """`WebPageFetcher` over httpx with conditional requests and a size cap."""

    def __init__(
        self,
        *,
        max_bytes: int = 2_000_000,
        timeout: float = 10.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        """Pages larger than `max_bytes` are refused; `transport` is for tests."""
        self.max_bytes = max_bytes
        self.client = httpx.Client(
            timeout=timeout,
            follow_redirects=True,
            max_redirects=5,
            headers={"User-Agent": USER_AGENT},
            transport=transport,
        )

    def fetch(self, url: str, stored: WebPage | None) -> WebFetch:
        """The page's main text now, or why not (a stored copy is never lost)."""
        headers: dict[str, str] = {}
        if stored is not None and stored.etag:
            headers["If-None-Match"] = stored.etag
        if stored is not None and stored.last_modified:
            headers["If-Modified-Since"] = stored.last_modified
        try:
            with self.client.stream("GET", url, headers=headers) as response:
                if response.status_code == 304 and stored is not None:
                    return WebFetch(url, "not_modified", stored)
                if response.status_code != 200:
                    return WebFetch(url, "failed", stored, f"HTTP {response.status_code}")
                kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
                if kind not in HTML_TYPES:
                    return WebFetch(url, "failed", stored, f"not HTML ({kind or 'no type'})")
                declared = response.headers.get("content-length", "")
                if declared.isdigit() and int(declared) > self.max_bytes:
                    return WebFetch(url, "failed", stored, self._too_large())
                body = bytearray()
                for chunk in response.iter_bytes():
                    body.extend(chunk)
                    if len(body) > self.max_bytes:
                        return WebFetch(url, "failed", stored, self._too_large())
                encoding = response.encoding or "utf-8"
                etag = response.headers.get("etag")
                last_modified = response.headers.get("last-modified")
        except httpx.HTTPError as error:
            return WebFetch(url, "failed", stored, f"{type(error).__name__}: {error}"[:200])
        source = bytes(body).decode(encoding, errors="replace")
        document = html_document(source, url, f"kb:{url}", fallback_title=url)
        if not document.text.strip():
            return WebFetch(url, "failed", stored, "no main text in the page")
        page = WebPage(
            url,
            document.title,
            document.text,
            etag,
            last_modified,
            datetime.now(UTC).isoformat(timespec="seconds"),
        )
        return WebFetch(url, "fetched", page)

    def _too_large(self) -> str:
        return f"larger than the {self.max_bytes:,}-byte cap (LECTERN_KB_MAX_PAGE_BYTES)"

    def close(self) -> None:
        """Close the connection pool."""
        self.client.close()


class FolderKbSourceStore:
    """`KbSourceStore`: pages as records under `<root>/<collection>/web/`, team files copied.

    The team files are copied (regular files only, never through a symlink, within the size
    cap) so that the collection reads only what the source list allowed.
    """

    def __init__(self, root: Path, *, max_bytes: int = 2_000_000) -> None:
        """Keep everything under `root` (inside the data directory)."""
        self.root = root
        self.max_bytes = max_bytes

    def _pages_file(self, collection: str) -> Path:
        return self.root / collection / "web" / "pages.json"

    def read_source_list(self, sources_dir: Path) -> str | None:
        """`sources.txt` of the folder, or None when there is none."""
        path = sources_dir / "sources.txt"
        if not path.is_file():
            return None
        return path.read_text(encoding="utf-8", errors="replace")

    def pages(self, collection: str) -> dict[str, WebPage]:
        """The stored pages by URL."""
        path = self._pages_file(collection)
        if not path.is_file():
            return {}
        try:
            rows = json.loads(path.read_text(encoding="utf-8"))
            return {row["url"]: WebPage(**row) for row in rows if isinstance(row, dict)}
        except (OSError, ValueError, TypeError, KeyError):
            # A damaged store only costs a full fetch of every page: start afresh.
            return {}

    def save_pages(self, collection: str, pages: Mapping[str, WebPage]) -> Path:
        """Store the pages (one JSON list, the `kb-web` mapping's input); their folder."""
        path = self._pages_file(collection)
        path.parent.mkdir(parents=True, exist_ok=True)
        rows = [asdict(p) for p in pages.values()]
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
        temporary.replace(path)
        return path.parent

    def stage_team(
        self, collection: str, sources_dir: Path, names: Sequence[str]
    ) -> tuple[Path, list[str], list[str]]:
        """Copy the team files (`names`, or all when empty) into `<stage>/team/`.

        Returns the stage folder, the names copied and a reason for each refused file.
        """
        team = sources_dir / "team"
        stage = self.root / collection / "files"
        if stage.exists():
            shutil.rmtree(stage)
        (stage / "team").mkdir(parents=True)
        problems: list[str] = []
        wanted = list(names)
        if not wanted and team.is_dir():
            for path in sorted(team.rglob("*")):
                if path.suffix.lower() in TEAM_SUFFIXES and not path.is_dir():
                    wanted.append(path.relative_to(team).as_posix())
        copied: list[str] = []
        base = team.resolve()
        for name in wanted:
            try:
                safe = check_team_name(name)
            except ValueError as error:
                problems.append(str(error))
                continue
            path = team / safe
            if any(p.is_symlink() for p in (path, *path.parents) if p != p.parent):
                problems.append(f"team file {name!r} is a symbolic link: not read")
                continue
            if not path.is_file() or not path.resolve().is_relative_to(base):
                problems.append(f"team file {name!r} is not in {team}")
                continue
            if path.stat().st_size > self.max_bytes:
                problems.append(f"team file {name!r} is larger than {self.max_bytes:,} bytes")
                continue
            target = stage / "team" / safe
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
            copied.append(safe)
        return stage, copied, problems
