"""Word lists the author parser reads: role words, name suffixes, placeholders for no name."""

from __future__ import annotations

AUTHOR_ROLES = frozenset(
    {
        "illustrator",
        "illustrations",
        "translator",
        "translation",
        "editor",
        "editors",
        "contributor",
        "introduction",
        "foreword",
        "afterword",
        "narrator",
        "adapter",
        "annotations",
        "compiler",
        "cover design",
        "cover artist",
        "photographer",
        "preface",
        "commentary",
        "goodreads author",
        "pseudonym",
        "creator",
        "artist",
        "colorist",
        "letterer",
        "penciler",
        "inker",
        "reader",
        "designer",
        "author",
    }
)
"""Parenthesised words after a name that describe a role, not the name itself."""

NAME_SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv", "phd", "ph.d.", "md"})
"""Parts of a name that a comma separates from it ("Martin Luther King, Jr.")."""

NOT_A_NAME = frozenset({"unknown", "anonymous author", "n/a"})
"""What sources write where an author's name is missing."""
