"""Personal data found in text, and masking it before it goes anywhere else."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

PiiKind = Literal[
    "EMAIL_ADDRESS", "PHONE_NUMBER", "US_SSN", "CREDIT_CARD", "MEDICAL_RECORD", "DATE_OF_BIRTH"
]
KIND_WORDS: dict[str, str] = {
    "EMAIL_ADDRESS": "an email address",
    "PHONE_NUMBER": "a phone number",
    "US_SSN": "a social security number",
    "CREDIT_CARD": "a card number",
    "MEDICAL_RECORD": "a medical record number",
    "DATE_OF_BIRTH": "a date of birth",
}


@dataclass(frozen=True, slots=True)
class PiiFinding:
    """One piece of personal data: its kind and where it is."""

    kind: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Masked:
    """Text with personal data replaced by `<KIND>` placeholders, and what was found."""

    text: str
    kinds: tuple[str, ...]


def mask(text: str, findings: Sequence[PiiFinding]) -> Masked:
    """Replace each finding by `<KIND>`; overlapping findings merge (the first kind wins)."""
    if not findings:
        return Masked(text, ())
    ordered = sorted(findings, key=lambda f: (f.start, -(f.end - f.start)))
    pieces: list[str] = []
    kinds: list[str] = []
    position = 0
    for finding in ordered:
        if finding.start < position:
            continue  # inside a span already masked
        pieces.append(text[position : finding.start])
        pieces.append(f"<{finding.kind}>")
        kinds.append(finding.kind)
        position = finding.end
    pieces.append(text[position:])
    return Masked("".join(pieces), tuple(dict.fromkeys(kinds)))


def masked_notice(kinds: Sequence[str]) -> str:
    """The sentence a reply adds when personal data was masked."""
    words = [KIND_WORDS.get(k, k.lower()) for k in kinds]
    listed = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
    return f"(I masked {listed} in your message before processing it.)"


PLAIN_KEYS = frozenset(("source", "label", "status", "priority", "due_date", "created_at", "kind"))
"""Keys whose values are references or codes, never free text: they are not masked (an id
masked as a "phone number" would leave the model unable to call the next tool)."""


def mask_data(value: object, find: Callable[[str], Sequence[PiiFinding]]) -> object:
    """A JSON value with personal data masked in its free-text strings (ids left alone)."""
    if isinstance(value, str):
        return mask(value, find(value)).text
    if isinstance(value, list):
        return [mask_data(v, find) for v in value]
    if isinstance(value, dict):
        return {
            k: v
            if isinstance(k, str) and (k in PLAIN_KEYS or k == "id" or k.endswith("_id"))
            else mask_data(v, find)
            for k, v in value.items()
        }
    return value
