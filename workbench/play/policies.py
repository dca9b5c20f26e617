"""The policies every engine plays, written once: their codes, their parameters, their own generator, and the
epsilon-greedy policy.

A side's policy lives in a block of `POLICY_WORDS` integers in the engine's state (each engine's side row keeps it
from its `S_POLICY` column on): the policy's code (`P_CODE`), its parameter (`P_EPSILON`: epsilon in millionths, or
the search's settings packed) and the four words of the policy's own xorshift generator (`P_RNG`). The command
line, the app and the bench name a policy as text (`greedy`, `random`, `search`, `search:4`,
`search:4:depth=2:rollout_policy=random`, `epsilon`, `epsilon:0.25`); `policy_word` turns the text into the one
integer an engine's batch takes for each side (code and parameter packed; `policy_code` reads the code back), and
`start_policy` unpacks it into the block when a match begins.

**Search's settings** (`search:R`, `search:R:depth=D:rollout_policy=P`): the policy's own parameters, so each
side searches with its own (`--policy search:4 --policy-b search:16:depth=0`). R is the budget, rollouts per
candidate at each decision it searches (1 to `MAX_SEARCH_ROLLOUTS`, also written `rollouts=R`); D the turns a
rollout plays after the searched one before the game's own evaluation scores it (0: to the match's end, up to
`MAX_SEARCH_DEPTH`; only in an engine whose search cuts its rollouts off, `Engine.search_settings`); P the policy
both sides play in the rollouts (`greedy` or `random`). The settings are separated by colons, not commas, since a
list of policies is written with commas. A setting left out is the rule option of the same name (`search_rollouts`,
`search_depth`, `search_rollout_policy`), as plain `search` always read them: `search:R:depth=D` plays exactly as
`search` with `search_rollouts=R search_depth=D` would. An engine's search reads them through `search_rollouts_of`,
`search_depth_of` and `search_rollout_policy_of`.

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

SEARCH_SETTINGS = ("rollouts", "depth", "rollout_policy")
"""The search policy's own settings, by name (`search:R:depth=D:rollout_policy=P`, below); an engine's
`search_settings` says which of them its search takes."""

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
MAX_SEARCH_DEPTH = 10_000
"""The deepest cut-off `search:depth=D` takes: the bound of the rule option `search_depth` in every ruleset."""
ROLLOUT_POLICIES = ("greedy", "random")
"""The policies a search's rollouts may play, by code (GREEDY, RANDOM)."""
DEPTH_SHIFT, DEPTH_BITS = 10, 14
"""A search parameter's depth field: depth + 1 (0: not set) in the 14 bits above the budget's 10."""
PLAYOUT_SHIFT = DEPTH_SHIFT + DEPTH_BITS
"""A search parameter's rollout-policy field: its code + 1 (0: not set) in the bits above the depth's."""
ROLLOUTS_MASK = (1 << DEPTH_SHIFT) - 1
"""A search parameter's budget bits (0: not set)."""
DEPTH_MASK = (1 << DEPTH_BITS) - 1
"""A search parameter's depth bits, shifted down."""
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


def policy_word(name: str, known: Sequence[str], search_settings: Sequence[str] = SEARCH_SETTINGS) -> int:
    """The integer an engine's batch takes for a side playing `name` (code and parameter packed), or an error naming
    the valid policies. `known` is the engine's `ENGINE.policies` (a prefix of `POLICY_NAMES`), `search_settings` its
    `search_settings` (which of the search's settings it takes)."""
    base, valued, value = name.strip().casefold().partition(":")
    base = base.strip()
    if base in known and base != "epsilon" and not valued:
        return known.index(base)
    if base == "epsilon" and "epsilon" in known:
        epsilon = epsilon_of(name, value.strip()) if valued else DEFAULT_EPSILON
        return EPSILON_GREEDY | (round(epsilon * EPSILON_SCALE) << CODE_BITS)
    if base == "search" and "search" in known:
        return SEARCH | (search_parameter(name, value if valued else None, search_settings) << CODE_BITS)
    takes = "; epsilon takes a value, e.g. epsilon:0.1" if "epsilon" in known else ""
    takes += "; search settings, e.g. search:4" if "search" in known else ""
    raise WorkbenchInputError(
        f"'{name}' is not a policy of this engine.", expected="one of: " + ", ".join(known) + takes
    )


def is_policy(name: str, known: Sequence[str], search_settings: Sequence[str] = SEARCH_SETTINGS) -> bool:
    """Whether `policy_word` reads `name` as one of the `known` policies."""
    try:
        policy_word(name, known, search_settings)
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


def search_parameter(name: str, value: str | None, search_settings: Sequence[str]) -> int:
    """The packed parameter of `search:VALUE` (VALUE: settings separated by colons, `R`, `rollouts=R`, `depth=D`,
    `rollout_policy=P`; None for plain `search`, whose parameter is 0), or an error naming the setting and what was
    expected. A setting the engine's search does not take (`search_settings`) is refused, not ignored."""
    if value is None:
        return 0
    given: dict[str, str] = {}
    for item in value.split(":"):
        key, equals, setting = (part.strip() for part in item.partition("="))
        if not equals:
            key, setting = "rollouts", key
        if key not in SEARCH_SETTINGS:
            raise WorkbenchInputError(
                f"'{name}': the search has no setting '{key}'.",
                expected="settings "
                + ", ".join(search_settings)
                + ", e.g. search:4:"
                + search_example(search_settings),
            )
        if key not in search_settings:
            raise WorkbenchInputError(
                f"'{name}': this engine's search does not take '{key}'"
                + (" (it plays every rollout to the match's end)." if key == "depth" else "."),
                expected="settings " + ", ".join(search_settings),
            )
        if key in given:
            raise WorkbenchInputError(f"'{name}': '{key}' is set twice.", expected="each setting once")
        given[key] = setting
    parameter = 0
    if "rollouts" in given:
        parameter |= search_whole_number(name, given["rollouts"], "rollouts", MAX_SEARCH_ROLLOUTS, 1)
    if "depth" in given:
        depth = search_whole_number(name, given["depth"], "depth", MAX_SEARCH_DEPTH, 0)
        parameter |= (depth + 1) << DEPTH_SHIFT
    if "rollout_policy" in given:
        policy = given["rollout_policy"]
        if policy not in ROLLOUT_POLICIES:
            raise WorkbenchInputError(
                f"'{name}': the rollouts' policy must be greedy or random, not '{policy}'.",
                expected="rollout_policy=greedy or rollout_policy=random",
            )
        parameter |= (ROLLOUT_POLICIES.index(policy) + 1) << PLAYOUT_SHIFT
    return parameter


def search_example(search_settings: Sequence[str]) -> str:
    """An example of the settings an engine's search takes, after the budget (`depth=2:rollout_policy=random`)."""
    return ":".join(
        example
        for key, example in (("depth", "depth=2"), ("rollout_policy", "rollout_policy=random"))
        if key in search_settings
    )


def search_whole_number(name: str, value: str, key: str, most: int, least: int) -> int:
    """A whole-number search setting (`rollouts`, `depth`) from `least` to `most`, or an error saying what was
    expected."""
    if not (value.isascii() and value.isdigit() and least <= int(value) <= most):
        meaning = "rollouts per candidate" if key == "rollouts" else "turns a rollout plays after the searched one"
        raise WorkbenchInputError(
            f"'{name}': the search's {key} must be a whole number ({meaning}) from {least} to {most:,}.",
            expected=(
                "search (the option search_rollouts) or search:R with 1 <= R <= 1,000, e.g. search:4"
                if key == "rollouts"
                else f"search:depth=D with 0 <= D <= {most:,}, e.g. search:depth=2 (0: to the match's end)"
            ),
        )
    return int(value)


def policy_code(word: int) -> int:
    """The policy code of a policy word (GREEDY, RANDOM, SEARCH or EPSILON_GREEDY), its parameter left out."""
    return word & CODE_MASK


def policy_name(word: int) -> str:
    """The text of a policy word (`epsilon:0.1` for epsilon-greedy at 0.1, `search:4` for a search of 4 rollouts
    per candidate, `search:4:depth=0:rollout_policy=random`): what `policy_word` reads back. A search's settings are
    named in one order, the budget first, each only when set."""
    code = policy_code(word)
    parameter = word >> CODE_BITS
    if code == EPSILON_GREEDY:
        return f"epsilon:{parameter / EPSILON_SCALE:g}"
    if code == SEARCH and parameter:
        settings = []
        if parameter & ROLLOUTS_MASK:
            settings.append(str(parameter & ROLLOUTS_MASK))
        if (parameter >> DEPTH_SHIFT) & DEPTH_MASK:
            settings.append(f"depth={((parameter >> DEPTH_SHIFT) & DEPTH_MASK) - 1}")
        if parameter >> PLAYOUT_SHIFT:
            settings.append(f"rollout_policy={ROLLOUT_POLICIES[(parameter >> PLAYOUT_SHIFT) - 1]}")
        return "search:" + ":".join(settings)
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
    own = block[P_EPSILON] & ROLLOUTS_MASK
    return own if own > 0 else option


@inline_kernel
def search_depth_of(block: IntArray, option: EngineInt) -> EngineInt:
    """The turns the search's rollouts play after the searched one for the side whose policy block this is: its own
    (`search:depth=D`), else the rule option `search_depth` (`option`)."""
    own = (block[P_EPSILON] >> DEPTH_SHIFT) & DEPTH_MASK
    return own - 1 if own > 0 else option


@inline_kernel
def search_rollout_policy_of(block: IntArray, option: EngineInt) -> EngineInt:
    """The policy code (GREEDY or RANDOM) both sides play in the search's rollouts for the side whose policy block
    this is: its own (`search:rollout_policy=P`), else the rule option `search_rollout_policy` (`option`, a code)."""
    own = block[P_EPSILON] >> PLAYOUT_SHIFT
    return own - 1 if own > 0 else option


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
