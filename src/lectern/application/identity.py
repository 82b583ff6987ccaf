"""Who is calling: API keys mapped to user names, checked in constant time."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass, field

LOCAL_USER = "local"
"""The one user of an installation without API keys."""


def _digest(key: str) -> bytes:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).digest()


@dataclass(frozen=True)
class ApiKeyring:
    """The accepted API keys and the user each one stands for.

    Keys are kept as SHA-256 digests and every check compares the caller's digest with every
    key's, so neither the answer time nor an early exit says how close a guess was.
    """

    _users_by_digest: Mapping[bytes, str] = field(default_factory=dict)

    @classmethod
    def parse(cls, spec: str | None) -> ApiKeyring:
        """Read `LECTERN_API_KEYS`: comma-separated `user:key` pairs or bare keys.

        A bare key stands for a user named after its position (`key1`, `key2`, ...).
        Raises ValueError for an empty user or key, or a key given twice.
        """
        users: dict[bytes, str] = {}
        if not spec:
            return cls(users)
        for position, raw in enumerate((part.strip() for part in spec.split(",")), start=1):
            if not raw:
                continue
            user, sep, key = raw.partition(":")
            if not sep:
                user, key = f"key{position}", raw
            user, key = user.strip(), key.strip()
            if not user or not key:
                raise ValueError(f"entry {position} needs both a user and a key (user:key)")
            digest = _digest(key)
            if digest in users:
                raise ValueError(f"entry {position} repeats a key given earlier")
            users[digest] = user
        return cls(users)

    @property
    def required(self) -> bool:
        """Whether callers must present a key at all."""
        return bool(self._users_by_digest)

    @property
    def users(self) -> frozenset[str]:
        """Every user a key stands for."""
        return frozenset(self._users_by_digest.values())

    def authenticate(self, given: str | None) -> str | None:
        """The user of a valid key, else None; the time taken does not depend on the guess."""
        if not given:
            return None
        candidate = _digest(given)
        found: str | None = None
        for digest, user in self._users_by_digest.items():
            if hmac.compare_digest(candidate, digest):
                found = user
        return found
