"""Patch proposals (issue 35): a card's number of copies as a candidate change in Millennium Blades.

The toy ruleset has no copies, so these run on the bundled Blades sample without simulating: a copies change is a
field a proposal may change (`--field copies`), moves like a stat (an over-powered card's copies down, an
under-powered card's up), stays within the document's limits (the core set's counts are free; an expansion card's
copies are fixed by its star rank, `blades.set_copies`) and reads as the diff's patch note.
"""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd
import pytest

from workbench import open_set
from workbench.auto_decks import HAND_MADE
from workbench.cards import CardSet, WorkbenchInputError
from workbench.diff import diff_cardsets
from workbench.judging import ON_CURVE, OVER, UNDER, VerdictRule
from workbench.propose import COPIES, COST, Candidate, Change, Score, _field_of, _resolve_fields, _Search
from workbench.run_settings import RunSettings

CORE_OVER = "Rust Hound"  # core set, 3 copies
CORE_UNDER = "Lamplighter"  # core set, 2 copies
EXPANSION = "Surf Cadet"  # expansion, the set's lowest star: 3 copies by the document


@pytest.fixture(scope="module")
def blades() -> CardSet:
    return open_set("blades/blades_sample")


def _search(cardset: CardSet, stats: tuple[str, ...] = (COPIES,)) -> _Search:
    return _Search(
        cardset=cardset,
        decks=[],
        matches_per_card=10,
        run=RunSettings(seed=0, workers=1),
        stats=stats,
        cost_allowed=COST in stats,
        locked_cards=set(),
        locked_fields=set(),
        max_changes=3,
        max_step=2,
        budget=1,
        rule=VerdictRule(),
        min_play_share=0.0,
        gauntlet=HAND_MADE,
        steps=2,
    )


def test_copies_is_a_field_a_blades_proposal_may_change_and_no_other_game_has_it(blades: CardSet) -> None:
    assert _field_of(blades, "Copies") == COPIES
    assert _resolve_fields(blades, ["cost", "copies"]) == (COST, COPIES)
    with pytest.raises(WorkbenchInputError, match="not a field"):
        _field_of(open_set("plasma/plasma_core"), "copies")


def test_a_core_card_s_copies_move_towards_balance_and_an_expansion_card_s_stay_as_the_document_fixes_them(
    blades: CardSet,
) -> None:
    search = _search(blades)
    assert search.admissible(Change(CORE_OVER, COPIES, 3, 2))
    assert not search.admissible(Change(EXPANSION, COPIES, 3, 2))  # blades.set_copies: the lowest star has 3
    assert not search.admissible(Change(CORE_OVER, COPIES, 3, 0))  # the card model's copies >= 1
    rows = pd.DataFrame(
        [
            {"card": CORE_OVER, "flag": OVER, "cost": 2.0, "excess": 0.1},
            {"card": CORE_UNDER, "flag": UNDER, "cost": 3.0, "excess": -0.1},
            {"card": EXPANSION, "flag": OVER, "cost": 2.0, "excess": 0.1},
            {"card": "Gloom Imp", "flag": ON_CURVE, "cost": 3.0, "excess": 0.0},
        ]
    )
    search.curves["measured"] = SimpleNamespace(cards=rows, rises_with_cost=False, slope=0.0)  # type: ignore[assignment]
    base = Candidate((), Score(3, 0.3, (CORE_OVER, EXPANSION), (CORE_UNDER,)), "measured")
    moves = search.moves(base)
    assert moves[CORE_OVER] == [Change(CORE_OVER, COPIES, 3.0, 2.0), Change(CORE_OVER, COPIES, 3.0, 1.0)]
    assert moves[CORE_UNDER] == [Change(CORE_UNDER, COPIES, 2.0, 3.0), Change(CORE_UNDER, COPIES, 2.0, 4.0)]
    assert EXPANSION not in moves and "Gloom Imp" not in moves
    assert search.apply([Change(EXPANSION, COPIES, 3, 2)]) is None


def test_a_copies_change_reads_as_the_diff_s_patch_note(blades: CardSet) -> None:
    search = _search(blades)
    changed = search.apply([Change(CORE_OVER, COPIES, 3, 2)])
    assert changed is not None
    assert changed.find(CORE_OVER).card.copies == 2  # type: ignore[union-attr]
    assert f"{CORE_OVER}: copies 3 -> 2." in diff_cardsets(blades, changed).patch_notes()


@pytest.mark.slow
def test_a_blades_search_over_copies_changes_only_core_cards_copies(blades: CardSet) -> None:
    from workbench.decklists import set_decks
    from workbench.paths import decks_folder_beside
    from workbench.propose import propose

    decks = set_decks(blades, decks_folder_beside(blades.path)).decks
    result = propose(
        blades,
        decks,
        20,
        RunSettings(seed=0, workers=1),
        fields=["copies"],
        evaluations=2,
        max_proofs=1,
        matches_per_pair=4,
        proof_matches_per_pair=4,
    )
    proposals = [*result.offered, *result.refused]
    assert proposals, result.to_text()
    for proposal in proposals:
        for change in proposal.changes:
            assert change.field == COPIES
            assert blades.find(change.card).card.set_kind == "core"  # type: ignore[union-attr]
        assert proposal.patch_notes[0].startswith(f"{proposal.changes[0].card}: copies ")
    assert result.meta["fields"] == [COPIES]
