"""The kernel helpers every engine relies on: the seeded generator, the shuffle and bit sets."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from numba import njit

from workbench.engines import EngineInt, lowest_set_bit, rng_below, rng_next, rng_seed, shuffle_in_place

_SEQUENCE_SCRIPT = """
import json, numpy as np
from workbench.engines import rng_seed, rng_next, shuffle_in_place
state = np.zeros(4, dtype=np.int64)
rng_seed(state, 123456789012345)
values = [int(rng_next(state)) for _ in range(5)]
deck = np.arange(20, dtype=np.int64)
shuffle_in_place(deck, 20, state)
print(json.dumps([values, deck.tolist()]))
"""


def _run(disable_jit: bool) -> list[list[int]]:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1" if disable_jit else "0")
    out = subprocess.run([sys.executable, "-c", _SEQUENCE_SCRIPT], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_compiled_and_plain_python_kernels_draw_the_same_numbers() -> None:
    assert _run(disable_jit=False) == _run(disable_jit=True)


def test_generator_is_seeded_and_stays_in_32_bits() -> None:
    state = np.zeros(4, dtype=np.int64)
    rng_seed(state, 1)
    first = [rng_next(state) for _ in range(1_000)]
    rng_seed(state, 1)
    assert [rng_next(state) for _ in range(1_000)] == first
    rng_seed(state, 2)
    assert [rng_next(state) for _ in range(1_000)] != first
    assert all(0 <= value < 2**32 for value in first)


def test_seed_zero_still_draws() -> None:
    state = np.zeros(4, dtype=np.int64)
    rng_seed(state, 0)
    assert len({rng_next(state) for _ in range(100)}) > 90


def test_rng_below_is_in_range_and_roughly_uniform() -> None:
    state = np.zeros(4, dtype=np.int64)
    rng_seed(state, 99)
    counts = np.bincount([int(rng_below(state, 6)) for _ in range(60_000)], minlength=6)
    assert counts.shape == (6,)
    # 10,000 expected per face; 5 standard deviations is about 456.
    assert np.all(np.abs(counts - 10_000) < 460)


def test_shuffle_is_a_permutation_of_the_first_count_values_only() -> None:
    state = np.zeros(4, dtype=np.int64)
    rng_seed(state, 5)
    values = np.arange(30, dtype=np.int64)
    shuffle_in_place(values, 20, state)
    assert sorted(values[:20].tolist()) == list(range(20))
    assert values[20:].tolist() == list(range(20, 30))
    assert values[:20].tolist() != list(range(20))


def _walk(bits: EngineInt) -> list[int]:
    found = []
    while bits != 0:
        found.append(lowest_set_bit(bits))
        bits &= bits - 1
    return found


_walk_compiled = njit(cache=False)(_walk)


@pytest.mark.parametrize("members", [[0], [3], [0, 1, 2], [5, 9, 40], [61], [0, 30, 62], list(range(63))])
def test_a_bit_set_is_walked_lowest_first_compiled_and_plain(members: list[int]) -> None:
    bits = sum(1 << m for m in members)
    assert _walk(bits) == members
    assert _walk(np.int64(bits)) == members  # as engines hold it: an element of an int64 array
    assert list(_walk_compiled(bits)) == members


def test_an_llvm_inline_kernel_is_copied_in_and_its_called_kernels_stay_called() -> None:
    """`llvm_inline_kernel` marks its machine code `alwaysinline`; a `rules_kernel` first compiled while one is being
    typed stays a called function (Numba would otherwise pass `forceinline` on to it)."""
    from numba.core import config

    # Numba's own reading of NUMBA_DISABLE_JIT (any value it takes as on): then nothing is compiled to inspect.
    if getattr(config, "DISABLE_JIT", False):
        pytest.skip("nothing is compiled under NUMBA_DISABLE_JIT")
    from numba.core.caching import NullCache

    from workbench.engines import llvm_inline_kernel, rules_kernel

    # Fresh dispatchers (not cached): defined here, compiled here.
    def twice(x: int) -> int:
        return 2 * x

    def twice_plus_one(x: int) -> int:
        return twice_called(x) + 1

    twice_called: Any = rules_kernel(twice)
    copied_in: Any = llvm_inline_kernel(twice_plus_one)
    # Never from the on-disk cache: Numba inspects no cached code ("Inspection disabled for cached code. Invalid
    # result is returned."), so a second run would check an invalid result. NullCache is what a dispatcher without
    # cache=True holds.
    twice_called._cache = NullCache()
    copied_in._cache = NullCache()

    @njit
    def caller(x: int) -> int:
        return copied_in(x) * 3

    assert caller(4) == 27
    inlined = next(iter(copied_in.overloads.values()))
    called = next(iter(twice_called.overloads.values()))
    assert inlined.fndesc.inline
    assert not called.fndesc.inline
    assert any("alwaysinline" in ir for ir in copied_in.inspect_llvm().values())
    assert not any("alwaysinline" in ir for ir in twice_called.inspect_llvm().values())


def test_an_engine_package_answers_to_every_public_name_of_its_modules() -> None:
    # The engines split into packages (circles, plasma, SOURCE, Millennium Blades, souls) answer to every public name
    # of their modules, as the single module did: a tool reading a constant by name (`getattr(engine, "EV_PLAY")`)
    # finds it, a private name or an unknown one is an AttributeError naming the package. Each name is one object in
    # the whole package: the lookup answers with the first module that holds a name, so a second module's kernel of
    # the same name (a batch loop named like the Python side's `play_batch`) would silently stand for it.
    from workbench.play.assembly import names_of_modules

    for ruleset_id in ("circles", "plasma", "source", "blades", "souls"):
        package = importlib.import_module(f"workbench.rulesets.{ruleset_id}.engine")
        for module in package.MODULES:
            for name, value in vars(module).items():
                if name.startswith("_") or isinstance(value, ModuleType):
                    continue
                assert getattr(package, name) is value, f"{ruleset_id}: {module.__name__}.{name} is another object"
        with pytest.raises(AttributeError, match=f"workbench.rulesets.{ruleset_id}.engine"):
            _ = package.NO_SUCH_NAME
    layout = importlib.import_module("workbench.rulesets.circles.engine.layout")
    lookup = names_of_modules("pkg", (layout,))
    assert lookup("EV_PLAY") == layout.EV_PLAY
    with pytest.raises(AttributeError, match="'pkg' has no attribute '_private'"):
        lookup("_private")


def test_a_wrapper_put_by_replace_in_modules_stands_in_every_module_that_holds_the_name() -> None:
    from workbench.play.assembly import replace_in_modules

    first, second, third = ModuleType("first"), ModuleType("second"), ModuleType("third")
    setattr(first, "kernel", "real")  # noqa: B010 - a module's attribute, as an engine module holds a kernel
    setattr(second, "kernel", "real")  # noqa: B010
    replace_in_modules((first, second, third), "kernel", "wrapped")
    assert [getattr(m, "kernel", None) for m in (first, second, third)] == ["wrapped", "wrapped", None]


@pytest.mark.parametrize("ruleset_id", ["circles", "souls", "plasma", "source", "blades"])
def test_each_engine_module_imports_only_those_before_it_and_the_rules_call_no_policy(ruleset_id: str) -> None:
    # Each engine package lists its modules in order (MODULES, engine/__init__.py: layout <- ... <- python_side) and
    # every module on disk is listed; no module imports one after it, so no rule module imports a policy. The rules
    # stop at each decision and return: they hold no door to a policy (no `choose*` in `rules`), and a play loop
    # asks the package's `decide` at each decision until its `is_over`.
    import ast
    from pathlib import Path

    package = importlib.import_module(f"workbench.rulesets.{ruleset_id}.engine")
    names = [module.__name__ for module in package.MODULES]
    assert package.__file__ is not None
    on_disk = sorted(path.stem for path in Path(package.__file__).parent.glob("*.py"))
    assert on_disk == sorted(["__init__", *(name.rsplit(".", 1)[1] for name in names)])
    for k, module in enumerate(package.MODULES):
        assert module.__file__ is not None
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        imported = {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        later = imported & {*names[k:], package.__name__}
        assert not later, f"{module.__name__} imports {sorted(later)}"
    assert not hasattr(package, "POLICY_DOOR")
    assert hasattr(package, "decide") and hasattr(package, "is_over")
    assert not [name for name in vars(package.rules) if name.startswith("choose")]


@pytest.mark.parametrize(("ruleset_id", "most"), [("plasma", 80), ("source", 120)])
def test_a_deck_larger_than_the_engine_holds_is_refused_by_its_name(ruleset_id: str, most: int) -> None:
    # plasma's and SOURCE's match states hold a deck in a field of fixed size: a larger deck is refused before any
    # match, by name, with the bound; one card fewer plays.
    from workbench.bench import bundled_cardset_and_decks
    from workbench.cards import WorkbenchInputError
    from workbench.decklists import parse_decklist
    from workbench.rulesets import get_ruleset
    from workbench.simulate import compile_for

    cardset, decks = bundled_cardset_and_decks(get_ruleset(ruleset_id))
    _, compiled, _ = compile_for(cardset, {})
    assert compiled.max_deck_cards == most
    card = compiled.names[int(compiled.deck_array(decks[0])[0])]
    assert len(compiled.deck_array(parse_decklist(f"{most} {card}", cardset, name="fits"))) == most
    with pytest.raises(WorkbenchInputError) as refused:
        compiled.deck_array(parse_decklist(f"{most + 1} {card}", cardset, name="too_big"))
    assert "deck 'too_big' holds" in str(refused.value) and f"{most + 1} cards" in str(refused.value)
    assert f"at most {most} cards" in str(refused.value.expected)


def test_a_trace_s_batch_card_ids_are_made_the_set_s_by_the_columns_that_hold_cards() -> None:
    from workbench.play.assembly import global_trace

    ids = np.array([4, 9, 30], dtype=np.int64)
    # (turn, player, code, card, other, amount): code 7's `other` is a card, code 8's `card` is not one.
    events = np.array([[1, 0, 5, 2, 1, 0], [1, 0, 7, 0, 2, 3], [2, 1, 8, 12, -1, 0], [2, 1, 7, -1, -1, 0]])
    mapped = global_trace(ids, events, other_is_card=(7,), card_is_not_card=(8,))
    assert mapped.tolist() == [[1, 0, 5, 30, 1, 0], [1, 0, 7, 4, 30, 3], [2, 1, 8, 12, -1, 0], [2, 1, 7, -1, -1, 0]]
    assert events[0, 3] == 2  # the trace given is left as it was


def test_a_batch_s_counters_and_trace_are_the_set_s_by_its_card_ids() -> None:
    from workbench.engines import COUNTERS, new_counters
    from workbench.play.assembly import pairing_counters, pairing_trace

    ids = np.array([1, 3], dtype=np.int64)  # a pairing of set cards 1 and 3 out of 5
    batch = new_counters(2)
    batch[0, 0, 0], batch[1, 1, 0], batch[0, 1, len(COUNTERS)] = 7, 2, 99  # the last a scratch column
    published = pairing_counters(5, ids, batch)
    assert published.shape == (2, 5, len(COUNTERS))
    assert (published[0, 1, 0], published[1, 3, 0], int(published.sum())) == (7, 2, 9)
    every_card = np.arange(5, dtype=np.int64)  # a batch that played every card of the set: its ids are the set's
    whole = new_counters(5)
    whole[1, 4, 0] = 3
    assert np.array_equal(pairing_counters(5, every_card, whole), whole[:, :, : len(COUNTERS)])
    events = np.array([[1, 0, 5, 1, -1, 0]])
    assert pairing_trace(ids, events, other_is_card=()).tolist() == [[1, 0, 5, 3, -1, 0]]
    untraced = pairing_trace(ids, None, other_is_card=())
    assert untraced.shape == (0, 6) and untraced.dtype == np.int64
