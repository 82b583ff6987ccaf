"""Tools that change the user's data: each previews a field-level diff and runs on approval.

The preview resolves names to ids (a list name to its id, a title to a book id): the
resolved input is what is stored, digested and, on approval, executed unchanged. `state`
reads the entity again in the form of the preview's `old_state`; the approval compares the
two and refuses when they differ ("changed since preview").
"""

from __future__ import annotations

import uuid
from typing import Any

from pydantic import Field, model_validator

from lectern.application.assistant.books import resolve_book
from lectern.application.assistant.query_tools import BookInput, ListInput, find_user_list
from lectern.application.assistant.tools import ActionTool, ToolContext, ToolInput
from lectern.application.catalog_corrections import apply_changes, field_value
from lectern.domain.assistant import ActionPreview, JSONObject
from lectern.domain.books import JSONValue
from lectern.domain.library import (
    CORRECTABLE_FIELDS,
    MAX_REVIEW_CHARS,
    CatalogCorrection,
    Rating,
    ReadingList,
    check_stars,
    clean_list_name,
    clean_note,
    same_list_name,
)
from lectern.domain.normalize import normalize_category
from lectern.domain.normalize.languages import language_code
from lectern.errors import (
    ActionNotReadyError,
    CorrectionNotFoundError,
    InvalidQueryError,
    ToolError,
)


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise ToolError(f"expected text, got {value!r}")
    return value


def _checked(action: Any) -> Any:
    try:
        return action()
    except InvalidQueryError as error:
        raise ToolError(str(error)) from None


class _ListTool(ActionTool):
    entity_type = "reading_list"

    def _list(self, context: ToolContext, reference: str) -> ReadingList:
        found = find_user_list(self.deps.library, context.user, reference)
        if found is None:
            raise ToolError(f"you have no reading list called {reference!r}")
        return found

    def _pending_list_id(self, context: ToolContext, name: str) -> str | None:
        """The id a pending create_list (or rename_list) of this user gives a list of this name.

        "rename Kids to Family, then add X to it" proposes both at once: the entry goes on
        the list being renamed, whichever is approved first.
        """
        for action in self.deps.actions.list(context.user, status="pending"):
            given = action.preview.tool_input
            named = {"create_list": "name", "rename_list": "new_name"}.get(action.preview.tool_name)
            if named and same_list_name(str(given.get(named, "")), name):
                return str(given["list_id"])
        return None


class CreateListInput(ToolInput):
    """Input of create_list."""

    name: str = Field(min_length=1, max_length=80, description="The new list's name.")


class CreateList(_ListTool):
    """A new, empty reading list."""

    name = "create_list"
    description = "Create a new reading list (the user approves before it is created)."
    Input = CreateListInput

    def preview(self, args: CreateListInput, context: ToolContext) -> ActionPreview:
        """Refuse a name the user already has (or is about to create)."""
        name = _checked(lambda: clean_list_name(args.name))
        if self.deps.library.find_list(context.user, name) is not None:
            raise ToolError(f"you already have a list called {name!r}")
        if self._pending_list_id(context, name) is not None:
            raise ToolError(f"a list called {name!r} is already waiting for your approval")
        list_id = self.deps.new_id()
        return self.proposal(
            f"Create the reading list {name!r}",
            list_id,
            {"list_id": list_id, "name": name},
            None,
            {"name": name, "books": 0},
        )

    def state(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """None while neither this id nor this name exists."""
        library, user = self.deps.library, context.user
        found = library.get_list(user, str(tool_input["list_id"])) or library.find_list(
            user, _text(tool_input["name"])
        )
        return None if found is None else {"name": found.name, "books": len(found.entries)}

    def execute(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """Create it."""
        created = self.deps.library.create_list(
            context.user, str(tool_input["list_id"]), _text(tool_input["name"]), context.now
        )
        return {"created_list": {"list_id": created.id, "name": created.name}}

    def arguments_of(self, tool_input: JSONObject) -> dict[str, Any]:
        """The name."""
        return {"name": tool_input["name"]}


class RenameListInput(ListInput):
    """Input of rename_list."""

    new_name: str = Field(min_length=1, max_length=80)


class RenameList(_ListTool):
    """A new name for a list."""

    name = "rename_list"
    description = "Rename one of the user's reading lists."
    Input = RenameListInput

    def preview(self, args: RenameListInput, context: ToolContext) -> ActionPreview:
        """The list's name now and after."""
        current = self._list(context, args.list)
        new_name = _checked(lambda: clean_list_name(args.new_name))
        other = self.deps.library.find_list(context.user, new_name)
        if other is not None and other.id != current.id:
            raise ToolError(f"you already have a list called {new_name!r}")
        return self.proposal(
            f"Rename the list {current.name!r} to {new_name!r}",
            current.id,
            {"list_id": current.id, "new_name": new_name},
            {"name": current.name},
            {"name": new_name},
        )

    def state(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """The list's name, or None once it is gone."""
        found = self.deps.library.get_list(context.user, str(tool_input["list_id"]))
        return None if found is None else {"name": found.name}

    def execute(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """Rename it."""
        self.deps.library.rename_list(
            context.user, str(tool_input["list_id"]), _text(tool_input["new_name"])
        )
        return {"renamed_list": {"list_id": tool_input["list_id"], "name": tool_input["new_name"]}}

    def arguments_of(self, tool_input: JSONObject) -> dict[str, Any]:
        """The list's id and the new name."""
        return {"list": tool_input["list_id"], "new_name": tool_input["new_name"]}


class DeleteList(_ListTool):
    """Delete a list and its entries."""

    name = "delete_list"
    description = "Delete one of the user's reading lists with its entries."
    Input = ListInput

    def preview(self, args: ListInput, context: ToolContext) -> ActionPreview:
        """The list as it is, and nothing after."""
        current = self._list(context, args.list)
        return self.proposal(
            f"Delete the list {current.name!r} ({len(current.entries)} books)",
            current.id,
            {"list_id": current.id},
            _list_state(current),
            None,
        )

    def state(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """The list's name and books."""
        found = self.deps.library.get_list(context.user, str(tool_input["list_id"]))
        return None if found is None else _list_state(found)

    def execute(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """Delete it."""
        self.deps.library.delete_list(context.user, str(tool_input["list_id"]))
        return {"deleted_list": tool_input["list_id"]}

    def arguments_of(self, tool_input: JSONObject) -> dict[str, Any]:
        """The list's id."""
        return {"list": tool_input["list_id"]}


def _list_state(reading_list: ReadingList) -> JSONValue:
    return {"name": reading_list.name, "books": [e.book_id for e in reading_list.entries]}


class EntryInput(ListInput, BookInput):
    """A book on a list."""


class AddToListInput(EntryInput):
    """Input of add_to_list."""

    note: str | None = Field(None, max_length=500)


class _EntryTool(_ListTool):
    entity_type = "list_entry"

    def _target(self, context: ToolContext, reference: str) -> tuple[str, str]:
        """(list id, name): an existing list, or one a pending create_list will make."""
        found = find_user_list(self.deps.library, context.user, reference)
        if found is not None:
            return found.id, found.name
        pending = self._pending_list_id(context, reference)
        if pending is None:
            raise ToolError(f"you have no reading list called {reference!r}")
        return pending, reference

    def state(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """Whether the book is on the list (and its note); not ready while the list is not."""
        list_id = str(tool_input["list_id"])
        found = self.deps.library.get_list(context.user, list_id)
        if found is None:
            for action in self.deps.actions.list(context.user, status="pending"):
                if action.preview.tool_input.get("list_id") == list_id and (
                    action.preview.tool_name == "create_list"
                ):
                    raise ActionNotReadyError(
                        f"the list does not exist yet: approve action {action.id} "
                        f"({action.preview.description}) first"
                    )
            return None
        entry = found.entry(str(tool_input["book_id"]))
        return {"on_list": entry is not None, "note": entry.note if entry else None}


class AddToList(_EntryTool):
    """Put a book on a list."""

    name = "add_to_list"
    description = (
        "Add a book (by id or title) to one of the user's reading lists, with an optional note."
    )
    Input = AddToListInput

    def preview(self, args: AddToListInput, context: ToolContext) -> ActionPreview:
        """The book off the list now, on it after."""
        list_id, list_name = self._target(context, args.list)
        book = resolve_book(self.deps, args.book)
        note = _checked(lambda: clean_note(args.note))
        current = self.deps.library.get_list(context.user, list_id)
        if current is not None and current.contains(str(book.id)):
            raise ToolError(f"{book.title!r} is already on {list_name!r}")
        return self.proposal(
            f"Add {book.title!r} to the list {list_name!r}",
            f"{list_id}:{book.id}",
            {"list_id": list_id, "book_id": str(book.id), "note": note},
            {"on_list": False, "note": None},
            {"on_list": True, "note": note},
        )

    def execute(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """Add it."""
        note = tool_input.get("note")
        self.deps.library.add_entry(
            context.user,
            str(tool_input["list_id"]),
            str(tool_input["book_id"]),
            note if isinstance(note, str) else None,
            context.now,
        )
        return {"added": {"list_id": tool_input["list_id"], "book_id": tool_input["book_id"]}}

    def arguments_of(self, tool_input: JSONObject) -> dict[str, Any]:
        """The list's id, the book's id and the note."""
        return {
            "list": tool_input["list_id"],
            "book": tool_input["book_id"],
            "note": tool_input.get("note"),
        }


class RemoveFromList(_EntryTool):
    """Take a book off a list."""

    name = "remove_from_list"
    description = "Remove a book (by id or title) from one of the user's reading lists."
    Input = EntryInput

    def preview(self, args: EntryInput, context: ToolContext) -> ActionPreview:
        """The book on the list now, off it after."""
        current = self._list(context, args.list)
        book = resolve_book(self.deps, args.book)
        entry = current.entry(str(book.id))
        if entry is None:
            raise ToolError(f"{book.title!r} is not on {current.name!r}")
        return self.proposal(
            f"Remove {book.title!r} from the list {current.name!r}",
            f"{current.id}:{book.id}",
            {"list_id": current.id, "book_id": str(book.id)},
            {"on_list": True, "note": entry.note},
            {"on_list": False, "note": None},
        )

    def execute(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """Remove it."""
        self.deps.library.remove_entry(
            context.user, str(tool_input["list_id"]), str(tool_input["book_id"])
        )
        return {"removed": {"list_id": tool_input["list_id"], "book_id": tool_input["book_id"]}}

    def arguments_of(self, tool_input: JSONObject) -> dict[str, Any]:
        """The list's id and the book's id."""
        return {"list": tool_input["list_id"], "book": tool_input["book_id"]}


class RateBookInput(BookInput):
    """Input of rate_book."""

    stars: int = Field(ge=1, le=5, description="1 to 5 stars.")
    review: str | None = Field(None, max_length=MAX_REVIEW_CHARS)


class RateBook(ActionTool):
    """The user's stars and review for a book."""

    name = "rate_book"
    description = "Rate a book 1-5 stars with an optional short review (replaces a rating)."
    entity_type = "rating"
    Input = RateBookInput

    def preview(self, args: RateBookInput, context: ToolContext) -> ActionPreview:
        """The rating now (or none) and after."""
        book = resolve_book(self.deps, args.book)
        stars = _checked(lambda: check_stars(args.stars))
        review = _checked(lambda: clean_note(args.review, MAX_REVIEW_CHARS))
        tool_input: dict[str, JSONValue] = {
            "book_id": str(book.id),
            "stars": stars,
            "review": review,
        }
        return self.proposal(
            f"Rate {book.title!r} {stars} star{'s' if stars != 1 else ''}",
            str(book.id),
            tool_input,
            self.state(tool_input, context),
            {"stars": stars, "review": review},
        )

    def state(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """The user's rating of the book, or None."""
        rating = self.deps.library.rating(context.user, str(tool_input["book_id"]))
        return None if rating is None else {"stars": rating.stars, "review": rating.review}

    def execute(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """Store the rating."""
        stars = tool_input["stars"]
        review = tool_input.get("review")
        if not isinstance(stars, int):
            raise ToolError("stars must be a whole number")
        self.deps.library.put_rating(
            Rating(
                context.user,
                str(tool_input["book_id"]),
                check_stars(stars),
                review if isinstance(review, str) else None,
                context.now,
            )
        )
        return {"rated": {"book_id": tool_input["book_id"], "stars": stars}}

    def arguments_of(self, tool_input: JSONObject) -> dict[str, Any]:
        """The book's id, stars and review."""
        return {
            "book": tool_input["book_id"],
            "stars": tool_input["stars"],
            "review": tool_input.get("review"),
        }


class ProposeCorrectionInput(BookInput):
    """Input of propose_correction: the book and the fields' right values."""

    language: str | None = Field(None, description="The right language (name or ISO code).")
    published_year: int | None = Field(None, ge=-3000, le=2100)
    authors: list[str] | None = Field(None, min_length=1, max_length=10)
    categories: list[str] | None = Field(None, min_length=1, max_length=20)

    @model_validator(mode="after")
    def _something(self) -> ProposeCorrectionInput:
        if all(getattr(self, name) is None for name in CORRECTABLE_FIELDS):
            raise ValueError("give at least one field to correct")
        return self


class ProposeCorrection(ActionTool):
    """Correct a book's language, year, authors or categories."""

    name = "propose_correction"
    description = (
        "Propose a correction of a book's language, published_year, authors or categories. "
        "On approval the catalog is updated and the user recorded as the field's source."
    )
    entity_type = "book"
    Input = ProposeCorrectionInput

    def preview(self, args: ProposeCorrectionInput, context: ToolContext) -> ActionPreview:
        """Old and new value of each corrected field."""
        del context
        book = resolve_book(self.deps, args.book)
        changes: dict[str, JSONValue] = {}
        if args.language is not None:
            code = language_code(args.language)  # "French" as well as "fr"
            if code is None:
                raise ToolError(f"unknown language {args.language!r}: use a name or ISO code")
            changes["language"] = code
        if args.published_year is not None:
            changes["published_year"] = args.published_year
        if args.authors is not None:
            changes["authors"] = [" ".join(a.split()) for a in args.authors if a.strip()]
        if args.categories is not None:
            changes["categories"] = [
                c for c in (normalize_category(c) for c in args.categories) if c
            ]
        old = {name: field_value(book, name) for name in changes}
        if old == changes:
            raise ToolError(f"{book.title!r} already has these values")
        return self.proposal(
            f"Correct {', '.join(changes)} of {book.title!r}",
            str(book.id),
            {"book_id": str(book.id), "changes": changes},
            old,
            changes,
        )

    def state(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """The corrected fields' values now."""
        del context
        book = self.deps.catalog.get(uuid.UUID(str(tool_input["book_id"])))
        changes = tool_input["changes"]
        if book is None or not isinstance(changes, dict):
            return None
        return {name: field_value(book, name) for name in changes}

    def execute(self, tool_input: JSONObject, context: ToolContext) -> JSONValue:
        """A catalog editor's correction applies; anyone else's waits for an editor.

        Either way the correction is recorded, with each field's old and new value; an
        applied one names the user as each field's provenance.
        """
        book_id = uuid.UUID(str(tool_input["book_id"]))
        changes = tool_input["changes"]
        book = self.deps.catalog.get(book_id)
        if book is None or not isinstance(changes, dict):
            raise ToolError("the book is no longer in the catalog")
        editor = self.deps.catalog_editors.is_editor(context.user)
        if editor:
            try:
                old = apply_changes(self.deps.catalog, book_id, changes, context.user)
            except CorrectionNotFoundError as error:
                raise ToolError(str(error)) from None
        else:
            old = {name: field_value(book, name) for name in changes}
        correction_id = context.idempotency_key or self.deps.new_id()
        self.deps.library.add_correction(
            CatalogCorrection(
                correction_id,
                context.user,
                str(book_id),
                tuple((name, old[name], changes[name]) for name in changes),
                "applied" if editor else "pending",
                context.now,
            )
        )
        if not editor:
            return {
                "proposed": {
                    "correction_id": correction_id,
                    "book_id": str(book_id),
                    "fields": list(changes),
                },
                "status": "pending",
                "note": "a catalog editor approves it before the catalog changes",
            }
        return {"corrected": {"book_id": str(book_id), "fields": list(changes)}}

    def arguments_of(self, tool_input: JSONObject) -> dict[str, Any]:
        """The book's id and the corrected fields."""
        changes = tool_input["changes"]
        return {"book": tool_input["book_id"], **(changes if isinstance(changes, dict) else {})}
