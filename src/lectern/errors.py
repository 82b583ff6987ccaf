"""Exceptions that entry points turn into exit codes or HTTP problems."""


class LecternError(Exception):
    """Base class of every error Lectern raises on purpose."""


class ConfigurationError(LecternError):
    """A setting is missing or holds a value Lectern cannot use."""


class SourceError(LecternError):
    """A data source cannot be read, fetched or verified."""


class UnknownSourceError(SourceError):
    """A source name that Lectern does not know was requested."""


class ChecksumMismatchError(SourceError):
    """A downloaded file does not match its pinned sha256."""


class BookNotFoundError(LecternError):
    """No book in the catalog matches the given id or ISBN."""


class InvalidQueryError(LecternError, ValueError):
    """A query or filter value is outside what Lectern accepts."""


class IndexMissingError(LecternError):
    """A search index has not been built yet."""


class IndexMismatchError(LecternError):
    """A stored index was built with another model or format than the one configured."""


class LLMError(LecternError):
    """A language model cannot do what was asked (unsupported task, provider unreachable)."""


class DatasetError(LecternError):
    """An evaluation input file is missing or malformed."""


class EvaluationRunNotFoundError(LecternError):
    """No evaluation run with that id."""


class CollectionNotFoundError(LecternError):
    """No collection with that name."""


class DocumentNotFoundError(LecternError):
    """No document, passage or label target with that id in the collection."""


class CollectionInputError(LecternError):
    """What was given to add cannot become a collection (missing path, nothing readable)."""


class MappingError(CollectionInputError):
    """A records mapping file is malformed or names fields the records do not have."""


class UploadRejectedError(CollectionInputError):
    """An uploaded document was refused: its name, size or type."""

    def __init__(self, message: str, reason: str = "invalid") -> None:
        """`reason` is one of invalid, too_large, unsupported, unreadable."""
        super().__init__(message)
        self.reason = reason
