"""An independent check that every number in the guideline agent's answers is in its sources.

Independent of the guardrail it checks: it imports nothing of Lectern. It reads the answers
the bench wrote (`bench/guideline_chat.py --answers FILE`), opens each cited page or section
in the original files of `../shared/data/guidance` (RFC pages split at form feeds; NIST
sections from the Markdown headings, up to the next heading of the same or a higher level),
and looks for every number of the answer in them, with its own extraction: digits (commas
dropped), numbers spelled as words, decimals and dotted versions as written, and words with
digits in them (AAL2, SHA-256) as written. A number is supported when it occurs in the text
of at least one page or section the answer cites.

Usage: python bench/check_guideline_numbers.py ANSWERS.json [--data ../shared/data]
Prints each unsupported number with its answer; exits 1 when there is any.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000,
}  # fmt: skip
LABEL = re.compile(r"\[(?P<name>[^\[\]]+?) (?:p\.(?P<page>\d+)|§(?P<section>[\w.\-]+))\]")
NUMBER = re.compile(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?![\w])|(?<![\w])\d+(?:\.\d+)*")
MIXED = re.compile(
    r"\b(?=[A-Za-z0-9\-/]*\d)(?=[A-Za-z0-9\-/]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9\-/]*\b"
)
NIST_FILES = {"A": "sp800-63a", "B": "sp800-63b", "C": "sp800-63c", "3": "sp800-63-3"}


def numbers(text: str) -> set[str]:
    """Every number of a text in one form: digits without commas; words as digits."""
    found = {m.group(0).replace(",", "") for m in NUMBER.finditer(text)}
    for word in re.findall(r"[a-z]+", text.lower()):
        if word in WORDS and word != "one":
            found.add(str(WORDS[word]))
    return found


def mixed_tokens(text: str) -> set[str]:
    """Words with digits and letters in them, as written, case-folded."""
    return {m.group(0).lower() for m in MIXED.finditer(text)}


def rfc_page(data: Path, number: str, page: int) -> str:
    pages = (data / "guidance" / "rfc" / f"rfc{number}.txt").read_text(errors="replace")
    parts = pages.split("\f")
    return parts[page - 1] if 0 < page <= len(parts) else ""


def nist_section(data: Path, volume: str, section: str) -> str:
    folder = data / "guidance" / "nist-sp800-63-3" / NIST_FILES.get(volume, "")
    wanted = section.removeprefix("Appendix ").strip()
    texts = []
    for path in sorted(folder.glob("*.md")):
        lines = path.read_text(errors="replace").splitlines()
        for start, line in enumerate(lines):
            match = re.match(r"^(#+)\s*(?:<a[^>]*></a>\s*)?(.*)$", line)
            if not match:
                continue
            title = re.sub(r"<[^>]+>", "", match.group(2)).strip()
            if not (
                title.startswith(wanted + " ")
                or title == wanted
                or title.startswith(f"Appendix {wanted}")
            ):
                continue
            level = len(match.group(1))
            end = len(lines)
            for later in range(start + 1, len(lines)):
                heading = re.match(r"^(#+)\s", lines[later])
                if heading and len(heading.group(1)) <= level:
                    end = later
                    break
            texts.append("\n".join(lines[start:end]))
    return "\n".join(texts)


def cited_text(data: Path, label: str) -> str:
    match = LABEL.fullmatch(label)
    if not match:
        return ""
    name = match.group("name")
    rfc = re.fullmatch(r"RFC (\d+)", name)
    if rfc and match.group("page"):
        return rfc_page(data, rfc.group(1), int(match.group("page")))
    nist = re.fullmatch(r"NIST SP 800-63([ABC]|-3)", name)
    if nist and match.group("section"):
        return nist_section(data, nist.group(1)[-1], match.group("section"))
    return ""


def check(answers: list[dict[str, Any]], data: Path) -> list[dict[str, Any]]:
    problems = []
    for item in answers:
        text = item["answer"]
        labels = [m.group(0) for m in LABEL.finditer(text)]
        claims = LABEL.sub(" ", text)
        sources = "\n".join(cited_text(data, label) for label in labels)
        missing_sources = [label for label in labels if not cited_text(data, label)]
        have_numbers = numbers(sources)
        have_mixed = mixed_tokens(sources)
        unsupported = sorted(n for n in numbers(claims) if n not in have_numbers)
        unsupported += sorted(t for t in mixed_tokens(claims) if t not in have_mixed)
        if unsupported or missing_sources:
            problems.append(
                {
                    "id": item["id"],
                    "unsupported": unsupported,
                    "labels_not_found": missing_sources,
                    "answer": text,
                }
            )
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("answers", type=Path)
    parser.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    args = parser.parse_args(argv)
    answers = json.loads(args.answers.read_text())["answers"]
    problems = check(answers, args.data)
    with_numbers = sum(1 for a in answers if numbers(LABEL.sub(" ", a["answer"])))
    print(
        json.dumps(
            {
                "answers": len(answers),
                "answers_with_numbers": with_numbers,
                "answers_with_unsupported_numbers": len(problems),
                "problems": problems,
            },
            indent=1,
        )
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
