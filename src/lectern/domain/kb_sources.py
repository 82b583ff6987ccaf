"""The support bot's source list: web pages (`kb:<url>`) and team topic files (`team:<file>`).

`sources.txt` in the configured folder (`kb.sources_dir`) holds one source a line; `#`
starts a comment. A team file name is a path inside the folder's `team/` directory: no
absolute paths, no `..`, no hidden parts, only text and Markdown files.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath
from urllib.parse import urlsplit

TEAM_SUFFIXES = (".md", ".markdown", ".txt")
MAX_URL_CHARS = 2_000


@dataclass(frozen=True, slots=True)
class SourceList:
    """What `sources.txt` asks for, and the lines it could not accept (with why)."""

    urls: tuple[str, ...] = ()
    team_files: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()


def check_url(url: str) -> str:
    """An http(s) URL with a host; ValueError saying what is wrong otherwise."""
    if len(url) > MAX_URL_CHARS:
        raise ValueError(f"a URL longer than {MAX_URL_CHARS} characters")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{url[:100]!r} is not an http(s) URL with a host")
    if any(c.isspace() for c in url):
        raise ValueError(f"{url[:100]!r} holds spaces")
    return url


def check_team_name(name: str) -> str:
    """A team file name as a safe relative POSIX path; ValueError for traversal and the like."""
    text = name.strip().replace("\\", "/")
    if not text or "\x00" in text:
        raise ValueError("an empty team file name")
    path = PurePosixPath(text)
    if path.is_absolute() or text.startswith("~") or ":" in path.parts[0]:
        raise ValueError(f"team file {name!r} must be a path inside the team folder")
    if any(part in ("..", ".") or part.startswith(".") for part in path.parts):
        raise ValueError(f"team file {name!r} may not contain '..' or hidden parts")
    if path.suffix.lower() not in TEAM_SUFFIXES:
        raise ValueError(f"team file {name!r} is not one of {', '.join(TEAM_SUFFIXES)}")
    return path.as_posix()


def parse_source_list(text: str) -> SourceList:
    """The sources of `sources.txt`; a bad line is a problem, never a crash."""
    urls: list[str] = []
    team: list[str] = []
    problems: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip() if raw.lstrip().startswith("#") else raw.strip()
        if not line:
            continue
        try:
            if line.startswith("kb:"):
                url = check_url(line.removeprefix("kb:").strip())
                if url not in urls:
                    urls.append(url)
            elif line.startswith("team:"):
                name = check_team_name(line.removeprefix("team:"))
                if name not in team:
                    team.append(name)
            else:
                raise ValueError(f"{line[:80]!r} is neither kb:<url> nor team:<file>")
        except ValueError as error:
            problems.append(f"sources.txt line {number}: {error}")
    return SourceList(tuple(urls), tuple(team), tuple(problems))


@dataclass(frozen=True, slots=True)
class WebPage:
    """A fetched page's main text, with the validators that let a refresh ask "changed?"."""

    url: str
    title: str
    text: str
    etag: str | None = None
    last_modified: str | None = None
    fetched_at: str = ""


@dataclass(frozen=True, slots=True)
class WebFetch:
    """One fetch: `fetched` (new text), `not_modified` (304: the stored copy stands), `failed`."""

    url: str
    outcome: str
    page: WebPage | None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class SourceSyncReport:
    """What `lectern kb sync` did, source by source."""

    collection: str
    fetches: tuple[WebFetch, ...]
    team_files: tuple[str, ...]
    problems: tuple[str, ...]
    documents: int
