"""Make source files available locally: read a mirror, or download and verify them."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import httpx
from tenacity import (
    retry,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential,
)

from lectern.application.ports import ProgressReporter, SourceFile
from lectern.errors import ChecksumMismatchError, SourceError

_CHUNK = 1 << 16


def sha256_of(path: Path) -> str:
    """The hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(_CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


class MirrorSourceFetcher:
    """Reads source files from a local copy laid out like the upstream folders."""

    def __init__(self, root: Path) -> None:
        """Root is the folder holding `goodbooks-10k/`, `7k-books/`, ..."""
        if not root.is_dir():
            raise SourceError(f"data mirror {root} is not a directory")
        self.root = root

    def fetch(self, files: Sequence[SourceFile]) -> dict[str, Path]:
        """Local paths in the mirror; a missing file is an error naming it."""
        found: dict[str, Path] = {}
        for item in files:
            path = self.root / item.path
            if not path.is_file():
                raise SourceError(f"{item.path} is missing from the data mirror {self.root}")
            found[item.path] = path
        return found


def _is_transient(error: BaseException) -> bool:
    if isinstance(error, httpx.HTTPStatusError):
        return error.response.status_code in {408, 425, 429, 500, 502, 503, 504}
    return isinstance(error, httpx.TransportError)


class HttpSourceFetcher:
    """Downloads source files into the data directory, checking each one's sha256.

    A partial download is kept as `<name>.part` and resumed with an HTTP Range request;
    the file takes its final name only once its checksum matches, so a reader never
    sees a half-written or corrupt file.
    """

    def __init__(
        self,
        directory: Path,
        *,
        base_url: str | None = None,
        timeout: float = 60.0,
        attempts: int = 4,
        progress: ProgressReporter | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        """Base URL, when set, replaces each file's upstream host: `{base_url}/{path}`."""
        self.directory = directory
        self.base_url = base_url.rstrip("/") if base_url else None
        self.timeout = timeout
        self.attempts = attempts
        self.progress = progress
        self.transport = transport

    def url_for(self, item: SourceFile) -> str:
        """Where a file is downloaded from."""
        return f"{self.base_url}/{item.path}" if self.base_url else item.url

    def fetch(self, files: Sequence[SourceFile]) -> dict[str, Path]:
        """Download what is missing or stale; reuse files whose checksum matches."""
        found: dict[str, Path] = {}
        with httpx.Client(
            timeout=self.timeout, follow_redirects=True, transport=self.transport
        ) as client:
            for item in files:
                target = self.directory / item.path
                if not (target.is_file() and sha256_of(target) == item.sha256):
                    self._download(client, item, target)
                found[item.path] = target
        return found

    def _download(self, client: httpx.Client, item: SourceFile, target: Path) -> None:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(target.name + ".part")
        fetch = retry(
            retry=retry_if_exception(_is_transient),
            stop=stop_after_attempt(self.attempts),
            wait=wait_exponential(multiplier=0.5, max=8),
            reraise=True,
        )(self._stream)
        url = self.url_for(item)
        try:
            fetch(client, url, partial)
        except httpx.HTTPError as error:
            raise SourceError(f"cannot download {item.path} from {url}: {error}") from error
        actual = sha256_of(partial)
        if actual != item.sha256:
            partial.unlink(missing_ok=True)
            raise ChecksumMismatchError(
                f"{item.path} from {url} has sha256 {actual[:12]}..., expected "
                f"{item.sha256[:12]}...; the download was discarded"
            )
        partial.replace(target)

    def _stream(self, client: httpx.Client, url: str, partial: Path) -> None:
        offset = partial.stat().st_size if partial.exists() else 0
        headers = {"Range": f"bytes={offset}-"} if offset else {}
        with client.stream("GET", url, headers=headers) as response:
            if response.status_code == 416:
                return  # the part file is already complete; the checksum decides.
            response.raise_for_status()
            resumed = response.status_code == 206
            total = response.headers.get("content-length")
            if self.progress:
                self.progress.start(
                    f"downloading {partial.name[:-5]}", int(total) if total else None
                )
            with partial.open("ab" if resumed else "wb") as handle:
                for block in response.iter_bytes(_CHUNK):
                    handle.write(block)
                    if self.progress:
                        self.progress.advance(len(block))
