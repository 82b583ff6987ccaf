"""The collection service: adding, searching and showing, over one set of adapters."""

from __future__ import annotations

from lectern.application.collections.ingest import CollectionIngest
from lectern.application.collections.search import CollectionSearch
from lectern.application.collections.views import CollectionViews


class CollectionService(CollectionIngest, CollectionSearch, CollectionViews):
    """Add, list, show, remove and search collections; resolve labels to their text.

    Each part lives in its own module (`ingest`, `search`, `views`) over the adapters and
    state of `CollectionBase`; this class puts them together for bootstrap and callers.
    """
