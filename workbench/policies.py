"""The policies every engine plays, written once: their codes, their parameters, their own generator, and the
epsilon-greedy policy.

A side's policy lives in a block of `POLICY_WORDS` integers in the engine's state (each engine's side row keeps it
from its `S_POLICY` column on): the policy's code (`P_CODE`), its parameter (`P_EPSILON`: epsilon in millionths, or
the search's rollouts per candidate) and the four words of the policy's own xorshift generator (`P_RNG`). The
command line, the app and the bench name a policy as text (`greedy`, `random`, `search`, `search:4`, `epsilon`,
`epsilon:0.25`); `policy_word` turns the text into the one integer an engine's batch takes for each side (code and
parameter packed; `policy_code` reads the code back), and `start_policy` unpacks it into the block when a match
begins.

**Search's budget** (`search:R`, R rollouts per candidate at each decision it searches, 1 to `MAX_SEARCH_ROLLOUTS`):
the policy's own parameter, so each side can search with its own budget (`--policy search:4 --policy-b search:16`).
Plain `search` carries no parameter and searches with the rule option `search_rollouts` as before; `search:R`
plays exactly as `search` with `search_rollouts=R` would (`search_rollouts_of` is where an engine's search reads it).

**Epsilon-greedy** (`epsilon:E`, E in [0, 1], default `DEFAULT_EPSILON`): at each decision the side's policy asks,
the side plays the game's random policy with probability E and greedy otherwise. Both the coin and the random
policy's draws come from the side's own generator, seeded from the match's seed and the side, so an explored
decision never moves the match's generator: the deal, the dice and the other side's random draws are those of the
match greedy would have played, up to what the decisions themselves change. An engine's policy door asks
`plays_random(block, rng)` where it asked "is this side random?", and hands the random policy's choice to
`random_played(block, rng, choice)`: for an exploring epsilon side the first trades the two generators' words, so
the game's own random policy draws from the policy's generator, and the second trades them back. A decision is one
row of a listed decision, in every engine (docs/simulation.md, *Policies*).

Greedy, random and search play bit for bit as before: their blocks hold only their code, and their generator words
are never drawn from.

Pure: numpy and numba only, so every engine's kernels call these.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from workbench.cards import WorkbenchInputError
from workbench.engines import EngineInt, IntArray, inline_kernel, rng_below, rng_seed, rules_kernel

GREEDY, RANDOM, SEARCH, EPSILON_GREEDY = 0, 1, 2, 3
"""Policy codes, the same in every engine (an engine's `ENGINE.policies` names them in this order)."""
POLICY_NAMES = ("greedy", "random", "search", "epsilon")
"""The policies' names, by code."""

P_CODE, P_EPSILON, P_RNG = 0, 1, 2
"""A policy block's words: the code, the parameter (epsilon in millionths), and the first of the generator's four."""
POLICY_WORDS = 6
"""Length of a side's policy block."""

MAX_SEARCH_ROLLOUTS = 1_000
"""The most rollouts per candidate `search:R` takes: the bound of the rule option `search_rollouts` in every ruleset."""
EPSILON_SCALE = 1_000_000
"""Epsilon is kept in millionths: `epsilon:0.1` plays random at a decision when a draw below 10**6 is under 100,000."""
DEFAULT_EPSILON = 0.1
"""Epsilon when the name has no value (`epsilon` alone)."""
CODE_BITS = 8
"""A policy word's low bits hold the code, the bits above them the parameter."""
CODE_MASK = (1 << CODE_BITS) - 1
"""A policy word's code bits (`word & CODE_MASK` in a kernel, `policy_code` in Python)."""
POLICY_SEED_SALT = 0x5EED_0F_E951_0000
"""Mixed into the match's seed for the policy's generator, so it never repeats the match's own stream."""


def policy_word(name: str, known: Sequence[str]) -> int:
    """The integer an engine's batch takes for a side playing `name` (code and parameter packed), or an error naming
    the valid policies. `known` is the engine's `ENGINE.policies` (a prefix of `POLICY_NAMES`)."""
    base, valued, value = name.strip().casefold().partition(":")
    base = base.strip()
    if base in known and base != "epsilon" and not valued:
        return known.index(base)
    if base == "epsilon" and "epsilon" in known:
        epsilon = epsilon_of(name, value.strip()) if valued else DEFAULT_EPSILON
        return EPSILON_GREEDY | (round(epsilon * EPSILON_SCALE) << CODE_BITS)
    if base == "search" and "search" in known:
        return SEARCH | (search_rollouts_in(name, value.strip()) << CODE_BITS)
    takes = "; epsilon takes a value, e.g. epsilon:0.1" if "epsilon" in known else ""
    takes += "; search a budget, e.g. search:4" if "search" in known else ""
    raise WorkbenchInputError(
        f"'{name}' is not a policy of this engine.", expected="one of: " + ", ".join(known) + takes
    )


def is_policy(name: str, known: Sequence[str]) -> bool:
    """Whether `policy_word` reads `name` as one of the `known` policies."""
    try:
        policy_word(name, known)
    except WorkbenchInputError:
        return False
    return True


def epsilon_of(name: str, value: str) -> float:
    """The epsilon of `epsilon:VALUE`, or an error saying what was expected."""
    try:
        epsilon = float(value)
    except ValueError:
        epsilon = math.nan
    if not 0.0 <= epsilon <= 1.0:  # NaN fails both
        raise WorkbenchInputError(
            f"'{name}': epsilon must be a number from 0 to 1.", expected="epsilon:E with 0 <= E <= 1, e.g. epsilon:0.1"
        )
    return epsilon


def search_rollouts_in(name: str, value: str) -> int:
    """The R of `search:R`, or an error saying what was expected."""
    if not (value.isascii() and value.isdigit() and 1 <= int(value) <= MAX_SEARCH_ROLLOUTS):
        raise WorkbenchInputError(
            f"'{name}': the search's budget must be a whole number of rollouts per candidate from 1 to "
            f"{MAX_SEARCH_ROLLOUTS:,}.",
            expected="search (the option search_rollouts) or search:R with 1 <= R <= 1,000, e.g. search:4",
        )
    return int(value)


def policy_code(word: int) -> int:
    """The policy code of a policy word (GREEDY, RANDOM, SEARCH or EPSILON_GREEDY), its parameter left out."""
    return word & CODE_MASK


def policy_name(word: int) -> str:
    """The text of a policy word (`epsilon:0.1` for epsilon-greedy at 0.1, `search:4` for a search of 4 rollouts
    per candidate): what `policy_word` reads back."""
    code = policy_code(word)
    if code == EPSILON_GREEDY:
        return f"epsilon:{(word >> CODE_BITS) / EPSILON_SCALE:g}"
    if code == SEARCH and word >> CODE_BITS:
        return f"search:{word >> CODE_BITS}"
    return POLICY_NAMES[code]


@rules_kernel
def start_policy(block: IntArray, word: EngineInt, seed: EngineInt, side: EngineInt) -> None:
    """Fill a side's policy block at the start of a match from its policy word (`policy_word`) and the match's seed:
    the code, the parameter and, for epsilon-greedy, the policy's own generator (seeded apart from the match's)."""
    block[P_CODE] = word & CODE_MASK
    block[P_EPSILON] = word >> CODE_BITS
    if block[P_CODE] == EPSILON_GREEDY:
        rng_seed(block[P_RNG : P_RNG + 4], seed ^ (POLICY_SEED_SALT + side))  # no overflow, compiled or not


@inline_kernel
def search_rollouts_of(block: IntArray, option: EngineInt) -> EngineInt:
    """The search's rollouts per candidate for the side whose policy block this is: its own (`search:R`), else the
    rule option `search_rollouts` (`option`), as plain `search` always read it."""
    own = block[P_EPSILON]
    return own if own > 0 else option


@inline_kernel
def word_search_rollouts(word: EngineInt, option: EngineInt) -> EngineInt:
    """`search_rollouts_of` from the policy word itself, for an engine whose searching side keeps greedy's block in
    its state (SOURCE)."""
    own = word >> CODE_BITS
    return own if own > 0 else option


@inline_kernel
def trade_generators(block: IntArray, rng: IntArray) -> None:
    """Swap the policy's generator words with the match's (`rng`, four words)."""
    for i in range(4):
        word = block[P_RNG + i]
        block[P_RNG + i] = rng[i]
        rng[i] = word


@inline_kernel
def plays_random(block: IntArray, rng: IntArray) -> bool:
    """Whether the side plays this decision by the game's random policy: always for `random`, never for `greedy` and
    `search`, with probability epsilon for epsilon-greedy (drawn from its own generator). An exploring epsilon side
    leaves the generators traded (the random policy then draws from the policy's generator through `rng`); the door
    hands the random policy's choice to `random_played`, which trades them back."""
    code = block[P_CODE]
    if code == RANDOM:
        return True
    if code != EPSILON_GREEDY:
        return False
    if rng_below(block[P_RNG : P_RNG + 4], EPSILON_SCALE) >= block[P_EPSILON]:
        return False
    trade_generators(block, rng)
    return True


@inline_kernel
def random_played(block: IntArray, rng: IntArray, choice: EngineInt) -> EngineInt:
    """`choice` (the random policy's, made after `plays_random` said yes), with the generators traded back for an
    epsilon side."""
    if block[P_CODE] == EPSILON_GREEDY:
        trade_generators(block, rng)
    return choice
