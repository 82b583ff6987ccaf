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


class EvaluationBusyError(LecternError):
    """Another evaluation run is still going; one runs at a time."""


class NotReadyError(LecternError):
    """The search indexes are not loaded (yet, or at all)."""


class NotFoundError(LecternError):
    """Nothing with that id belongs to the caller (another user's things included: 404)."""


class ReadingListNotFoundError(NotFoundError):
    """The user has no reading list with that id or name."""


class ActionNotFoundError(NotFoundError):
    """The user has no pending action with that id."""


class ActionConflictError(LecternError):
    """An approval or rejection that cannot happen as asked (HTTP 409)."""


class ActionAlreadyDecidedError(ActionConflictError):
    """The action was approved, rejected, executed or failed before: nothing runs again."""


class ActionExpiredError(ActionConflictError):
    """The action's approval window has passed; it can no longer run."""


class ActionChangedError(ActionConflictError):
    """The entity changed since the preview; a fresh preview is offered instead."""

    def __init__(self, message: str, fresh_action_id: str | None = None) -> None:
        """Name the fresh preview's action, when one could be made."""
        super().__init__(message)
        self.fresh_action_id = fresh_action_id


class ActionNotReadyError(ActionConflictError):
    """The action depends on another that has not run yet (add to a list not yet created)."""


class AssistantDisabledError(LecternError):
    """LECTERN_ASSISTANT_ENABLED is false."""


class ChatCancelledError(LecternError):
    """The caller went away (a closed stream): the turn stopped before it finished."""


class ModelNotFoundError(NotFoundError):
    """An OpenAI-compatible request named a model this server does not serve."""


class ToolError(InvalidQueryError):
    """A tool cannot do what was asked; the message goes back to the model as data."""


class CollectionNotFoundError(NotFoundError):
    """No collection with that name."""


class DocumentNotFoundError(NotFoundError):
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


class UnreadableFileError(LecternError):
    """A file cannot become a document; the add reports it as skipped with this reason."""


class ProviderError(SourceError):
    """An external books provider (Open Library, Google Books) failed or answered nonsense."""


class WorkspaceNotFoundError(NotFoundError):
    """Nothing with that id is visible to the caller (another organization's things: 404)."""


class WorkspacePermissionError(LecternError):
    """The caller is a member but their role does not allow this (a viewer editing: 403)."""


class CatalogPermissionError(LecternError):
    """Only catalog editors (LECTERN_CATALOG_EDITORS) may do this (HTTP 403)."""


class CorrectionNotFoundError(NotFoundError):
    """No catalog correction with that id."""


class WorkspaceConflictError(LecternError):
    """The change contradicts what is stored (a member added twice, the last owner removed)."""


class MigrationError(LecternError):
    """`lectern migrate` cannot copy this install: a bad, unreachable or non-empty target."""


class AnswerModelError(LecternError):
    """The answer check's model file is missing or not a model of these features."""


class IntentModelError(LecternError):
    """The trained intent model cannot be read or was fitted on another embedding."""


class UploadQuotaError(LecternError):
    """A user already has as many upload jobs, or bytes, queued or running as allowed (429)."""


class UploadJobNotFoundError(NotFoundError):
    """No upload job with this id belongs to the caller."""
