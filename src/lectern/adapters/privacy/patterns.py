"""`PatternPiiDetector`: personal data by patterns and checksums, no model, no network.

Why not presidio-analyzer (measured, docs/assistant.md): its `AnalyzerEngine` needs a spaCy
model and tries to download one at start-up (fails offline); its recognizers can run alone,
but the package pulls in spaCy (392 MB installed), its e-mail recognizer fetches the public
suffix list over the network on first use, and its phone recognizer read an SSN as a phone
number. This module keeps presidio's approach (patterns, context words, checksums) and uses
the same phone engine presidio uses, Google's libphonenumber (`phonenumbers`).

| kind | rule |
|---|---|
| EMAIL_ADDRESS | local@domain.tld |
| US_SSN | ddd-dd-dddd or ddd dd dddd, area not 000/666/9xx, group and serial not zero |
| CREDIT_CARD | 13-19 digits (spaces or dashes allowed) passing the Luhn check |
| PHONE_NUMBER | libphonenumber's matcher (valid numbers, region US by default) |
| MEDICAL_RECORD | a cue (MRN, medical record (number), patient id) then 5-12 digits/letters |
| DATE_OF_BIRTH | a cue (born, DOB, date of birth, birthday) then a date |
"""

from __future__ import annotations

import re

import phonenumbers

from lectern.domain.privacy import PiiFinding

_EMAIL = re.compile(r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b")
_SSN = re.compile(r"\b(?P<area>\d{3})[- ](?P<group>\d{2})[- ](?P<serial>\d{4})\b")
_CARD = re.compile(r"\b(?:\d[ -]?){12,18}\d\b")
_MRN = re.compile(
    r"\b(?:MRN|medical record(?: number| no\.?| #)?|patient (?:id|number))\s*[:#]?\s*"
    r"(?P<value>[A-Z0-9-]{5,12})\b",
    re.I,
)
_DATE = (
    r"(?:\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d{2}-\d{2}|"
    r"(?:\d{1,2}\s+)?[A-Z][a-z]{2,8}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|\d{1,2}\s+[A-Z][a-z]{2,8}\s+\d{4})"
)
_DOB = re.compile(
    r"\b(?:born(?: on)?|DOB|D\.O\.B\.|date of birth|birth ?date|birthday)\s*(?:is|was)?\s*[:#]?\s*"
    rf"(?P<value>{_DATE})",
    re.I,
)


def luhn_ok(digits: str) -> bool:
    """The Luhn checksum of a card number."""
    total = 0
    for position, char in enumerate(reversed(digits)):
        value = int(char)
        if position % 2 == 1:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


def _ssn_ok(match: re.Match[str]) -> bool:
    area = match.group("area")
    return (
        area not in ("000", "666")
        and not area.startswith("9")
        and match.group("group") != "00"
        and match.group("serial") != "0000"
    )


class PatternPiiDetector:
    """Finds emails, SSNs, card numbers, phones, medical record numbers and birth dates."""

    name = "patterns+libphonenumber"

    def __init__(self, region: str = "US") -> None:
        """Phone numbers without a country code are read as `region`'s."""
        self.region = region

    def find(self, text: str) -> list[PiiFinding]:
        """Every finding, in text order; a span is reported once (first rule wins)."""
        found: list[PiiFinding] = []
        found += [PiiFinding("EMAIL_ADDRESS", m.start(), m.end()) for m in _EMAIL.finditer(text)]
        found += [
            PiiFinding("US_SSN", m.start(), m.end()) for m in _SSN.finditer(text) if _ssn_ok(m)
        ]
        for match in _CARD.finditer(text):
            digits = re.sub(r"\D", "", match.group())
            if 13 <= len(digits) <= 19 and luhn_ok(digits):
                found.append(PiiFinding("CREDIT_CARD", match.start(), match.end()))
        found += [
            PiiFinding("MEDICAL_RECORD", m.start("value"), m.end("value"))
            for m in _MRN.finditer(text)
            if any(c.isdigit() for c in m.group("value"))
        ]
        found += [
            PiiFinding("DATE_OF_BIRTH", m.start("value"), m.end("value"))
            for m in _DOB.finditer(text)
        ]
        taken = [(f.start, f.end) for f in found]
        for phone in phonenumbers.PhoneNumberMatcher(text, self.region):
            if not any(s < phone.end and phone.start < e for s, e in taken):
                found.append(PiiFinding("PHONE_NUMBER", phone.start, phone.end))
        return sorted(found, key=lambda f: (f.start, f.end))
