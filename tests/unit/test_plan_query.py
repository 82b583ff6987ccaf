"""The one place a plan is composed: what was understood, minus what the reader removed."""

from lectern.application.understanding import plan_query
from lectern.domain.search import QueryPlan, Recognition, SearchFilters


class FixedPlanner:
    """Plans every query the same way: Spanish, fantasy, after 2000."""

    name = "fixed"

    def __init__(self) -> None:
        self.seen: list[str] = []

    def plan(self, query: str) -> QueryPlan:
        self.seen.append(query)
        return QueryPlan(
            query,
            filters=SearchFilters(language="es", min_year=2000),
            categories=("fantasy",),
            variations=("fantasy",),
            recognised=(
                Recognition("language", "es", 0, 7),
                Recognition("category", "fantasy", 8, 15),
            ),
        )


def test_without_ignore_the_plan_is_what_was_understood() -> None:
    planner = FixedPlanner()
    plan = plan_query(planner, "spanish fantasy after 2000")
    assert plan == planner.plan("spanish fantasy after 2000")
    assert planner.seen == ["spanish fantasy after 2000"] * 2


def test_ignored_parts_are_left_out_once_each() -> None:
    plan = plan_query(FixedPlanner(), "spanish fantasy", ["language", "categories", "language"])
    assert plan.filters == SearchFilters(min_year=2000)
    assert plan.categories == () and plan.variations == ()
    assert [r.kind for r in plan.recognised] == []
    assert plan.notes == ("removed by the reader: categories, language",)
