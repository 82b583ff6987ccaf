"""A collection's own glossary: the everyday names its documents give their terms."""

from __future__ import annotations

from lectern.domain.aliases import aliases_in, merged, named_in


def test_a_term_and_the_names_people_call_it_by() -> None:
    text = (
        "A Memorized Secret authenticator — commonly referred to as a <i>password</i> or, if "
        "numeric, a <i>PIN</i> — is a secret value. Users type the memorized secret "
        "(commonly referred to as a password or PIN)."
    )
    assert aliases_in(text) == {"password": "memorized secret", "pin": "memorized secret"}


def test_other_shapes_and_what_is_not_kept() -> None:
    assert aliases_in('the fully-qualified name (often referred to as an "FQDN")') == {
        "fqdn": "fully-qualified name"
    }
    assert aliases_in("an access list, also known as an ACL or") == {"acl": "access list"}
    assert aliases_in("the heap (also known as the heap)") == {}
    assert aliases_in("nothing here is called anything. (also known as)") == {}


def test_the_shortest_term_wins_and_a_question_names_an_alias_as_a_word() -> None:
    table = merged(
        [{"password": "memorized secret authenticator"}, {"password": "memorized secret"}]
    )
    assert table == {"password": "memorized secret"}
    assert named_in("min password length?", table) == {"password": "memorized secret"}
    assert named_in("must passwords expire", table) == {"password": "memorized secret"}
    assert named_in("passwordless login", table) == {}
    assert named_in("memorized secret or password?", table) == {}
