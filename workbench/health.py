"""The game's own health, before any card's verdict: first-player advantage, length, turn-cap hits, draws, dead cards.

A degenerate game (matches over by turn 3, a first player who wins two in three) makes every card's power figure
meaningless, so these figures are shown first. Each has a documented healthy range (`HealthThresholds`) and, when
it falls outside, a warning in words that names the rule options measured to move it (`RULE_LEVERS`; the measured
figures and the commands that measured them are in docs/simulation.md, "Game health").

How the matches are played: every ordered pair of the decks (each deck in both seats, mirrors included), on the
same seeds as `workbench.analysis.matchup_matrix` (one child of `SeedSequence(seed)` per pair, in the same order),
so the health of a set and its matchup matrix rest on the same matches. Within a pair the first player alternates,
so each deck goes first in half of its matches and a deck's strength does not leak into the first-player figure.

The figures follow Ludii's game metrics (Ludeme/Ludii, Evaluation/src/metrics/single): AdvantageP1 (the share of
games player 1 won) and Balance (1 minus the largest gap between the players' win rates) for the first player;
DurationTurns (mean turns) for the length; Timeouts (games ended by the turn limit) for the turn cap; Drawishness
(draws, not counting timeouts) for draws. Ludii's Decisiveness and LeadChange need a state evaluation during play;
the engines give none (see `MID_GAME_MISSING`), so the leader at mid-game is left out rather than guessed.

Whole games (`--option game=full`, Millennium Blades): `full_game_health` plays them through
`workbench.full_game.run_full_games` (the games `simulate --option game=full` plays, from the same seed) and
`health_of_full_games` measures the same figures on them: the first seat's win share against the fair share, its
place against the other seats', draws (a first place shared after every tie-break), store cards never bought, and the
leader after the middle tournament (a whole game records VP after every tournament). Length (fixed by the rules but in
Duel Mode) and turn-cap hits (no turn cap) say in words that they do not apply.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from workbench.analysis import PairResult, play_every_pair
from workbench.cards import CardSet, Deck, OptionValue, WorkbenchInputError
from workbench.full_game import FULL_GAME_DEFAULTS, FullGames, is_full_game, run_full_games
from workbench.play.policies import policy_word
from workbench.power_defaults import POWER_CURVE_DEFAULTS
from workbench.run_settings import RunSettings
from workbench.simulate import MatchResults, Rate, compile_for, engine_for, provenance

if TYPE_CHECKING:
    from workbench.engines import CompiledCards
    from workbench.rulesets.base import Ruleset

Z95 = 1.959964

FIRST_PLAYER = "first_player"
LENGTH = "length"
TURN_CAP = "turn_cap"
DRAWS = "draws"
NEVER_PLAYED = "never_played"
SEAT_PLACEMENT = "seat_placement"
MID_GAME_LEADER = "mid_game_leader"
FIGURE_KEYS = (FIRST_PLAYER, SEAT_PLACEMENT, LENGTH, TURN_CAP, DRAWS, NEVER_PLAYED, MID_GAME_LEADER)
"""Every figure's key, in the order the figures are shown."""

EFFECT_COUNTERS = ("attacked", "destroyed", "damage_dealt")
"""Counters of a card's effects: a card with none of these and no play never took part in a match."""

MID_GAME_MISSING = (
    "not measured: the engines return each match's winner and length (Millennium Blades also placement, VP and "
    "RP), and per-card counters, but no state from the middle of a match (life totals, board, ranking points), so "
    "who led at mid-game cannot be told; each engine would have to record its leader at half the match's turns"
)
"""Why the leader at mid-game is not among the figures (Ludii's Decisiveness and LeadChange need the same state)."""


@dataclass(frozen=True)
class HealthThresholds:
    """The healthy range of each figure (docs/simulation.md, "Game health", says why each default is what it is)."""

    first_player_low: float = 0.45
    """The first player's win rate (draws half) is healthy from here ..."""
    first_player_high: float = 0.55
    """... to here: within 5 points of even, about the edge a first move gives in chess."""
    strong_advantage: float = 0.05
    """Beyond this distance from the healthy range (below 40% or above 60% by default), the advantage is "strong"."""
    min_median_turns: float = 6.0
    """The median match should last at least this many turns (each player's turn counts one): three turns each,
    enough for a card costing more than the opening resources to come down."""
    max_turn_cap_share: float = 0.01
    """At most this share of matches may reach the ruleset's turn cap (each such match ends by the cap, not by play)."""
    max_draw_rate: float = 0.10
    """At most this share of matches may end in a draw before the turn cap (Ludii's Drawishness)."""
    rarely_played: float = POWER_CURVE_DEFAULTS.min_play_share
    """A card played in fewer than this share of its deck's matches is named as rarely played: the power curve's
    own line (`POWER_CURVE_DEFAULTS.min_play_share`, 5%), so the two name the same cards rare."""
    seat_place_gap: float = 0.25
    """Millennium Blades: the first half of the turn order may place at most this much better or worse on average
    than the second half (places run 1 to the number of players)."""
    rarely_bought: float = FULL_GAME_DEFAULTS.min_buy_share
    """Whole games: a store card bought by any seat in fewer than this share of the games is named as rarely bought
    (the whole-game power curve's line, `FULL_GAME_DEFAULTS.min_buy_share`, 10%)."""
    max_mid_game_leader: float = 0.80
    """Whole games: the seat ahead after the middle tournament may win at most this share of the games (above it,
    the game is decided before its end and the last rounds change little)."""


HEALTH_THRESHOLDS = HealthThresholds()
"""The thresholds used when a person does not choose."""


@dataclass(frozen=True)
class RuleLever:
    """A rule option measured to move a health figure: data, with its measured figures in docs/simulation.md."""

    ruleset: str
    """The ruleset id."""
    figure: str
    """The figure it moves (one of `FIGURE_KEYS`)."""
    option: str
    """The option as `--option` takes it, `key=value`."""
    effect: str
    """What it does to the figure, in words (e.g. "lengthens the game")."""


RULE_LEVERS: tuple[RuleLever, ...] = (
    RuleLever("circles", LENGTH, "new_characters_attack=false", "lengthens the game"),
    RuleLever("circles", LENGTH, "direct_damage=one_per_attacker", "lengthens the game"),
    RuleLever("circles", LENGTH, "resources_per_turn=1", "lengthens the game"),
    RuleLever("circles", FIRST_PLAYER, "new_characters_attack=false", "narrows the first player's advantage"),
    RuleLever("plasma", FIRST_PLAYER, "summoning_sickness=true", "narrows the first player's advantage a little"),
    RuleLever("plasma", TURN_CAP, "damage_wears_off=true", "ends stalled boards before the cap"),
    RuleLever("plasma", TURN_CAP, "attack_tapped_creatures=false", "fewer matches reach the cap"),
    RuleLever("source", TURN_CAP, "deck_out_loses=true", "ends stalled matches before the cap"),
    RuleLever("source", TURN_CAP, "combat_tie=both", "fewer matches reach the cap"),
    RuleLever("souls", NEVER_PLAYED, "sacrifice_from=either", "fewer cards never played"),
    RuleLever("souls", FIRST_PLAYER, "summons_per_turn=1", "evens the seats (a house rule: one summon a turn)"),
    RuleLever("blades", DRAWS, "players=2", "fewer draws, though not under 10%"),
)
"""Options measured to move a figure, per ruleset (the measured figures, with their commands: docs/simulation.md)."""


def levers_for(ruleset_id: str, figure: str) -> list[RuleLever]:
    """The rule options measured to move `figure` in that ruleset."""
    return [lever for lever in RULE_LEVERS if lever.ruleset == ruleset_id and lever.figure == figure]


@dataclass(frozen=True)
class HealthFigure:
    """One figure of the game's health, its healthy range and, outside it, a warning in words."""

    key: str
    """Which figure (one of `FIGURE_KEYS`)."""
    label: str
    """Its name, for a person."""
    summary: str
    """The figure in one sentence, with its interval where it has one."""
    healthy: str
    """The healthy range, in words."""
    ludii: str
    """The Ludii game metric it corresponds to."""
    value: float | None = None
    """The figure itself (a share, a number of turns or places); None when it was not measured."""
    low: float | None = None
    """Lower end of its 95% interval, where it has one."""
    high: float | None = None
    """Upper end of its 95% interval, where it has one."""
    warning: str | None = None
    """The warning in words, or None when the figure is in its healthy range (or was not measured)."""
    levers: tuple[str, ...] = ()
    """Rule options measured to move this figure, each as `key=value: what it does`."""
    deck: str | None = None
    """The deck it is about, for a per-deck figure (never-played cards); None for the whole game."""
    measured: bool = True
    """False when the engines give no data for it: `summary` then says what is missing."""

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "deck": self.deck,
            "measured": self.measured,
            "value": self.value,
            "low": self.low,
            "high": self.high,
            "summary": self.summary,
            "healthy": self.healthy,
            "ludii": self.ludii,
            "warning": self.warning,
            "options_that_move_it": list(self.levers),
        }


@dataclass(frozen=True)
class GameHealth:
    """The health figures of one card set's decks under one set of rule options, with their data and provenance."""

    figures: list[HealthFigure]
    """Every figure, in `FIGURE_KEYS` order (one never-played figure per deck)."""
    lengths: pd.DataFrame
    """The length histogram: turns, matches (one row per length that occurred)."""
    length_summary: dict[str, float]
    """mean, q1, median, q3, min and max turns over every match."""
    cards: pd.DataFrame
    """One row per deck and card: deck, card, matches (the deck's seats in all pairs), matches_drawn,
    matches_played, effect_events (attacks, destructions and damage the card made), played_share
    (matches_played / matches), never_played (no play and no effect in any match), rarely_played (played, in fewer
    than `HealthThresholds.rarely_played` of the matches)."""
    decks: pd.DataFrame
    """One row per deck: deck, matches, cards, never_played, never_played_share, never_played_cards and
    rarely_played_cards (lists of card names)."""
    pairs: pd.DataFrame
    """One row per ordered pair: deck, opponent, seed, matches, first_player_win_rate, low, high, draws,
    turn_cap_hits, mean_turns."""
    meta: dict[str, Any] = field(default_factory=dict)
    """Provenance (ruleset and engine versions, options, seed, matches per pair, policy, card-set hash), the decks,
    the pairs, the total match count, the turn cap and the thresholds."""
    whole_game: dict[str, Any] = field(default_factory=dict)
    """Whole games (`full_game_health`) only: `positions` (per seat clockwise from the one that opened the first
    tournament: mean place and final VP with their intervals, win share) and `store_cards` (per store card: games
    bought in, their share, never_bought, rarely_bought); empty for matches between decks."""

    @property
    def warnings(self) -> list[str]:
        """Every warning, in figure order."""
        return [figure.warning for figure in self.figures if figure.warning]

    def figure(self, key: str, deck: str | None = None) -> HealthFigure:
        """The figure of that key (and deck, for a per-deck figure)."""
        for figure in self.figures:
            if figure.key == key and (deck is None or figure.deck == deck):
                return figure
        raise KeyError(key)

    def to_json(self) -> dict[str, Any]:
        if self.whole_game:
            return {
                **self.meta,
                "figures": [figure.to_json() for figure in self.figures],
                "warnings": self.warnings,
                "length": self.length_summary | {"histogram": self.lengths.to_dict(orient="records")},
                **self.whole_game,
            }
        return {
            **self.meta,
            "figures": [figure.to_json() for figure in self.figures],
            "warnings": self.warnings,
            "length": self.length_summary | {"histogram": self.lengths.to_dict(orient="records")},
            "deck_plays": self.decks.to_dict(orient="records"),
            "card_plays": self.cards.to_dict(orient="records"),
            "pairs": self.pairs.to_dict(orient="records"),
        }


def _percent(value: float) -> str:
    """A share as a whole percent from 10% to 90%; outside, with the decimals it needs (2.0%, 0.04%), so a small
    share never reads as 0% or a large one as 100%."""
    if value < 1e-9 or value > 1 - 1e-9:
        return f"{round(value):.0%}"
    if 0.1 <= value <= 0.9:
        return f"{value:.0%}"
    for digits in (1, 2):
        text = f"{value:.{digits}%}"
        if 0 < float(text.rstrip("%")) < 100:
            return text
    return "under 0.01%" if value < 0.5 else "over 99.99%"


def _limit(value: float) -> str:
    """A threshold as a percent, as it was set (5%, 0.5%)."""
    return f"{value * 100:g}%"


def _played_percent(value: float) -> str:
    """A card's play share, cut (not rounded) to a tenth of a percent, so a share under the rarely-played line never
    reads as the line itself (4.96% is "4.9%", not "5%")."""
    cut = math.floor(value * 1000) / 10
    return f"{cut:.1f}%" if cut > 0 or value == 0 else "under 0.1%"


def _rate_text(rate: Rate) -> str:
    return f"{_percent(rate.value)} [{_percent(rate.low)}, {_percent(rate.high)}]"


def _outside(rate_low: float, rate_high: float, low: float, high: float) -> int:
    """+1 when the interval lies wholly above [low, high], -1 wholly below, 0 when they meet."""
    if rate_low > high:
        return 1
    if rate_high < low:
        return -1
    return 0


def _lever_texts(ruleset_id: str, figure: str) -> tuple[str, ...]:
    return tuple(f"{lever.option}: {lever.effect}" for lever in levers_for(ruleset_id, figure))


def game_health(
    cardset: CardSet,
    decks: Sequence[Deck],
    matches_per_pair: int = POWER_CURVE_DEFAULTS.matches_per_pair,
    run: RunSettings = RunSettings(),
    *,
    thresholds: HealthThresholds = HEALTH_THRESHOLDS,
) -> GameHealth:
    """Play every ordered pair of `decks` (mirrors included) and measure the game's health (module docstring).
    With the rule option `game=full` the decks are not used: whole games are played instead (`full_game_health`,
    `matches_per_pair` whole games)."""
    if is_full_game(cardset.ruleset, run.options):
        return full_game_health(cardset, matches_per_pair, run, thresholds=thresholds)
    if not decks:
        raise WorkbenchInputError(
            "game health needs at least one deck: every ordered pair of the decks is played.",
            expected="one or more --deck files or names, or a set with decks of its own",
        )
    engine = engine_for(cardset)
    seed, policy = run.seed, run.policy
    policy_word(policy, engine.policies, engine.search_settings)  # an unknown policy fails before any match
    resolved = cardset.ruleset.resolve_options(run.options)
    # The same pairs and seeds as the matchup matrix, so the two rest on the same matches.
    results = [
        (pair.deck_a, pair.deck_b, pair.seed, pair.results)
        for pair in play_every_pair(cardset, decks, matches_per_pair, replace(run, options=resolved))
    ]

    cap_value = resolved.get("turn_cap")
    turn_cap = int(cap_value) if isinstance(cap_value, (int, float)) and not isinstance(cap_value, bool) else None
    matches = pd.concat([r.matches.assign(pair=i) for i, (_, _, _, r) in enumerate(results)], ignore_index=True)
    hit_cap = matches["turns"] >= turn_cap if turn_cap is not None else pd.Series(False, index=matches.index)
    drawn = matches["winner"] == "draw"

    ruleset_id = cardset.ruleset.id
    figures = [_first_player_figure(matches, ruleset_id, thresholds)]
    if {"place", "vp"} <= set(matches.columns):
        figures.append(_seat_placement_figure(matches, thresholds, int(resolved.get("players", 0) or 0)))
    figures.append(_length_figure(matches, ruleset_id, thresholds))
    figures.append(_turn_cap_figure(hit_cap, turn_cap, ruleset_id, thresholds))
    figures.append(_draws_figure(drawn & ~hit_cap, ruleset_id, thresholds))
    cards = _card_plays(results, thresholds)
    deck_rows = []
    for deck in dict.fromkeys(deck.name for deck in decks):
        rows = cards[cards["deck"] == deck]
        never = rows.loc[rows["never_played"], "card"].tolist()
        rare = rows.loc[rows["rarely_played"], "card"].tolist()
        deck_matches = int(rows["matches"].max()) if len(rows) else 0
        deck_rows.append(
            {
                "deck": deck,
                "matches": deck_matches,
                "cards": len(rows),
                "never_played": len(never),
                "never_played_share": len(never) / len(rows) if len(rows) else 0.0,
                "never_played_cards": never,
                "rarely_played_cards": rare,
            }
        )
        figures.append(_never_played_figure(deck, rows, never, rare, deck_matches, ruleset_id, thresholds))
    figures.append(
        HealthFigure(
            key=MID_GAME_LEADER,
            label="leader at mid-game",
            summary=MID_GAME_MISSING,
            healthy="the player ahead at mid-game wins at most about 80% of the time (comebacks are possible)",
            ludii="Decisiveness, LeadChange (both need a state evaluation during play)",
            measured=False,
        )
    )

    counts = matches["turns"].value_counts().sort_index()
    lengths = pd.DataFrame({"turns": counts.index.astype(int), "matches": counts.to_numpy(dtype=int)})
    quartiles = matches["turns"].quantile([0.25, 0.5, 0.75]).tolist()
    length_summary = {
        "mean": float(matches["turns"].mean()),
        "q1": float(quartiles[0]),
        "median": float(quartiles[1]),
        "q3": float(quartiles[2]),
        "min": float(matches["turns"].min()),
        "max": float(matches["turns"].max()),
    }
    pair_rows = []
    for index, (deck_a, deck_b, pair_seed, result) in enumerate(results):
        rate = result.first_player_win_rate
        pair_rows.append(
            {
                "deck": deck_a.name,
                "opponent": deck_b.name,
                "seed": pair_seed,
                "matches": len(result.matches),
                "first_player_win_rate": rate.value,
                "low": rate.low,
                "high": rate.high,
                "draws": float((result.matches["winner"] == "draw").mean()),
                "turn_cap_hits": int(hit_cap[matches["pair"] == index].sum()),
                "mean_turns": result.mean_turns,
            }
        )
    meta = provenance(cardset, engine, resolved, seed, len(matches), (policy, policy))
    meta |= {
        "matches_per_pair": matches_per_pair,
        "decks": [deck.name for deck in decks],
        "pairs": len(results),
        "turn_cap": turn_cap,
        "thresholds": dict(thresholds.__dict__),
        "engine_findings": results[0][3].meta.get("engine_findings", []),
    }
    return GameHealth(figures, lengths, length_summary, cards, pd.DataFrame(deck_rows), pd.DataFrame(pair_rows), meta)


def _first_player_figure(matches: pd.DataFrame, ruleset_id: str, thresholds: HealthThresholds) -> HealthFigure:
    """The first player's win rate over every match, draws half (Ludii's AdvantageP1; Balance = 1 - |2p - 1|)."""
    score = float((matches["winner"] == matches["first_player"]).sum()) + 0.5 * float(
        (matches["winner"] == "draw").sum()
    )
    rate = Rate.of(score, len(matches))
    low, high = thresholds.first_player_low, thresholds.first_player_high
    side = _outside(rate.low, rate.high, low, high)
    summary = f"the first player wins {_rate_text(rate)} of {len(matches):,} matches (draws half)"
    warning = None
    if side:
        distance = rate.value - high if side > 0 else low - rate.value
        strength = "a strong " if distance > thresholds.strong_advantage else "a "
        who = "first" if side > 0 else "second"
        warning = f"the first player wins {_rate_text(rate)}: {strength}{who}-player advantage"
    return HealthFigure(
        key=FIRST_PLAYER,
        label="first-player win rate",
        summary=summary,
        healthy=f"{_percent(low)} to {_percent(high)} (the interval must lie wholly outside to warn)",
        ludii=f"AdvantageP1 {rate.value:.3f}; Balance {1 - abs(2 * rate.value - 1):.3f}",
        value=rate.value,
        low=rate.low,
        high=rate.high,
        warning=warning,
        levers=_lever_texts(ruleset_id, FIRST_PLAYER) if warning else (),
    )


def _mean_interval(values: np.ndarray) -> tuple[float, float]:
    """The 95% normal half-width and the mean's variance term of a sample (0 for fewer than two values)."""
    if len(values) < 2:
        return 0.0, 0.0
    variance = float(values.var(ddof=1)) / len(values)
    return Z95 * math.sqrt(variance), variance


def _seat_placement_figure(matches: pd.DataFrame, thresholds: HealthThresholds, players: int) -> HealthFigure:
    """Millennium Blades: deck A's placement and VP when it sits in the first half of the turn order, against the
    second half (the engine's first player says which half A sits in)."""
    first = matches["first_player"] == "A"
    place_first, place_second = (
        matches.loc[first, "place"].to_numpy(float),
        matches.loc[~first, "place"].to_numpy(float),
    )
    vp_first, vp_second = matches.loc[first, "vp"].to_numpy(float), matches.loc[~first, "vp"].to_numpy(float)
    if not len(place_first) or not len(place_second):
        return HealthFigure(
            key=SEAT_PLACEMENT,
            label="seat advantage (placement)",
            measured=False,
            summary="not measured: every match had the same seat order",
            healthy="",
            ludii="AdvantageP1 (in places)",
        )
    gap = float(place_first.mean() - place_second.mean())
    _, var_first = _mean_interval(place_first)
    _, var_second = _mean_interval(place_second)
    half = Z95 * math.sqrt(var_first + var_second)
    limit = thresholds.seat_place_gap
    side = _outside(gap - half, gap + half, -limit, limit)
    summary = (
        f"a seat in the first half of the turn order places {place_first.mean():.2f} on average and earns "
        f"{vp_first.mean():.1f} VP; in the second half {place_second.mean():.2f} and {vp_second.mean():.1f} VP "
        f"(gap {gap:+.2f} places [{gap - half:+.2f}, {gap + half:+.2f}]"
        + (f", places 1 to {players}" if players else "")
        + ")"
    )
    warning = None
    if side:
        better = "first" if gap < 0 else "second"
        warning = (
            f"seats in the {better} half of the turn order place {abs(gap):.2f} places better on average "
            f"[{abs(gap) - half:.2f}, {abs(gap) + half:.2f}]: an advantage of turn order"
        )
    return HealthFigure(
        key=SEAT_PLACEMENT,
        label="seat advantage (placement)",
        summary=summary,
        healthy=f"a gap within ±{limit:g} places",
        ludii="AdvantageP1, in Millennium Blades' own units (placement and VP)",
        value=gap,
        low=gap - half,
        high=gap + half,
        warning=warning,
    )


def _length_figure(matches: pd.DataFrame, ruleset_id: str, thresholds: HealthThresholds) -> HealthFigure:
    """The length of matches in turns (each player's turn counts one; Ludii's DurationTurns)."""
    turns = matches["turns"].to_numpy(float)
    mean = float(turns.mean())
    half, _ = _mean_interval(turns)
    q1, median, q3 = (float(q) for q in np.quantile(turns, [0.25, 0.5, 0.75]))
    summary = (
        f"matches last {mean:.1f} turns on average [{mean - half:.1f}, "
        f"{mean + half:.1f}]; quartiles {q1:g} / {median:g} / {q3:g}"
    )
    warning = None
    if median < thresholds.min_median_turns:
        share_short = float((turns < thresholds.min_median_turns).mean())
        warning = (
            f"half the matches are over by turn {median:g} ({_percent(share_short)} end before turn "
            f"{thresholds.min_median_turns:g}): the game is too short for most cards to be played"
        )
    return HealthFigure(
        key=LENGTH,
        label="game length",
        summary=summary,
        healthy=f"a median of {thresholds.min_median_turns:g} turns or more (each player's turn counts one)",
        ludii=f"DurationTurns {mean:.2f}",
        value=mean,
        low=mean - half,
        high=mean + half,
        warning=warning,
        levers=_lever_texts(ruleset_id, LENGTH) if warning else (),
    )


def _turn_cap_figure(
    hit_cap: pd.Series, turn_cap: int | None, ruleset_id: str, thresholds: HealthThresholds
) -> HealthFigure:
    """The share of matches that reached the ruleset's turn cap (Ludii's Timeouts)."""
    if turn_cap is None:
        return HealthFigure(
            key=TURN_CAP,
            label="turn-cap hits",
            summary=(
                f"not measured: the {ruleset_id} rules have no turn cap "
                "(no turn_cap option); a match ends by its own rules"
            ),
            healthy=f"at most {_limit(thresholds.max_turn_cap_share)} of matches",
            ludii="Timeouts",
            measured=False,
        )
    rate = Rate.of(float(hit_cap.sum()), len(hit_cap))
    warning = None
    if rate.low > thresholds.max_turn_cap_share:
        warning = (
            f"{_rate_text(rate)} of matches reach the turn cap of {turn_cap} turns: they end by the cap, not by play "
            "(a stalled board)"
        )
    return HealthFigure(
        key=TURN_CAP,
        label="turn-cap hits",
        summary=(
            f"{_rate_text(rate)} of matches reach the turn cap of "
            f"{turn_cap} turns ({int(hit_cap.sum()):,} of {len(hit_cap):,})"
        ),
        healthy=f"at most {_limit(thresholds.max_turn_cap_share)} of matches",
        ludii=f"Timeouts {rate.value:.3f}",
        value=rate.value,
        low=rate.low,
        high=rate.high,
        warning=warning,
        levers=_lever_texts(ruleset_id, TURN_CAP) if warning else (),
    )


def _draws_figure(natural_draws: pd.Series, ruleset_id: str, thresholds: HealthThresholds) -> HealthFigure:
    """Draws before the turn cap (Ludii's Drawishness leaves timeouts out; the turn cap has its own figure)."""
    rate = Rate.of(float(natural_draws.sum()), len(natural_draws))
    return _drawish(rate, "of matches end in a draw (turn-cap hits aside)", "", "matches", ruleset_id, thresholds)


def _drawish(
    rate: Rate, what: str, count: str, unit: str, ruleset_id: str, thresholds: HealthThresholds
) -> HealthFigure:
    """The draws figure from its rate: `what` the draws are (after the rate), `count` added to the summary, `unit`
    what the band is a share of; a warning when the whole interval lies above the healthy share."""
    warning = None
    if rate.low > thresholds.max_draw_rate:
        warning = f"{_rate_text(rate)} {what}: a drawish game"
    return HealthFigure(
        key=DRAWS,
        label="draws",
        summary=f"{_rate_text(rate)} {what}{count}",
        healthy=f"at most {_limit(thresholds.max_draw_rate)} of {unit}",
        ludii=f"Drawishness {rate.value:.3f}",
        value=rate.value,
        low=rate.low,
        high=rate.high,
        warning=warning,
        levers=_lever_texts(ruleset_id, DRAWS) if warning else (),
    )


def _card_plays(results: Sequence[tuple[Deck, Deck, int, MatchResults]], thresholds: HealthThresholds) -> pd.DataFrame:
    """Per deck and card, over every seat the deck took in every pair: the matches it was drawn and played in.

    `matches_played` is the engine's count of matches with at least one play of the card; an engine without it
    (an older engine) gives `played`, events, which still tells never-played (0) from played."""
    rows = []
    for deck_a, deck_b, _, result in results:
        counters = result.counters
        for side, deck in (("A", deck_a), ("B", deck_b)):
            seat = counters[counters["deck"] == side]
            played = (
                seat["matches_played"] if "matches_played" in seat else seat["played"].clip(upper=len(result.matches))
            )
            drawn = seat["matches_drawn"] if "matches_drawn" in seat else seat["drawn"].clip(upper=len(result.matches))
            effects = sum((seat[name] for name in EFFECT_COUNTERS if name in seat), pd.Series(0, index=seat.index))
            rows.append(
                pd.DataFrame(
                    {
                        "deck": deck.name,
                        "card": seat["card"].to_numpy(),
                        "matches": len(result.matches),
                        "matches_drawn": drawn.to_numpy(dtype=int),
                        "matches_played": played.to_numpy(dtype=int),
                        "effect_events": effects.to_numpy(dtype=int),
                    }
                )
            )
    columns = ["deck", "card", "matches", "matches_drawn", "matches_played", "effect_events"]
    if not rows:
        return pd.DataFrame(columns=[*columns, "played_share", "never_played", "rarely_played"])
    frame = pd.concat(rows, ignore_index=True).groupby(["deck", "card"], sort=False, as_index=False)[columns[2:]].sum()
    frame["played_share"] = frame["matches_played"] / frame["matches"].where(frame["matches"] > 0, 1)
    # A card in play from the start (a Millennium Blades deck box) is never "played", yet its effects count: it
    # took part. Only a card with neither a play nor an effect is dead.
    frame["never_played"] = (frame["matches_played"] == 0) & (frame["effect_events"] == 0)
    frame["rarely_played"] = (frame["matches_played"] > 0) & (frame["played_share"] < thresholds.rarely_played)
    return frame


def _never_played_figure(
    deck: str,
    rows: pd.DataFrame,
    never: list[str],
    rare: list[str],
    matches: int,
    ruleset_id: str,
    thresholds: HealthThresholds,
) -> HealthFigure:
    """The share of one deck's cards (distinct names) never played in any of its matches."""
    cards = len(rows)
    share = len(never) / cards if cards else 0.0
    summary = f"{len(never)} of {cards} cards never played in {matches:,} matches ({_percent(share)})"
    if never:
        summary += ": " + ", ".join(never)
    if rare:
        played = rows.set_index("card")["played_share"]
        summary += f"; played in fewer than {_limit(thresholds.rarely_played)} of matches: " + ", ".join(
            f"{card} ({_played_percent(float(played[card]))})" for card in rare
        )
    warning = None
    if never or rare:
        parts = []
        if never:
            parts.append(
                f"{len(never)} of {cards} cards ({_percent(share)}) {'was' if len(never) == 1 else 'were'} never "
                f"played: {', '.join(never)}"
            )
        if rare:
            parts.append(
                f"{len(rare)} {'more ' if never else ''}{'was' if len(rare) == 1 else 'were'} played in fewer than "
                f"{_limit(thresholds.rarely_played)} of matches: {', '.join(rare)}"
            )
        warning = f"{deck}: " + "; ".join(parts) + " (no power can be measured for a card these matches hardly use)"
    return HealthFigure(
        key=NEVER_PLAYED,
        label=f"cards never played ({deck})",
        summary=summary,
        healthy=f"every card played, in at least {_limit(thresholds.rarely_played)} of its deck's matches",
        ludii="none (Ludii measures whole games; a card game adds its dead cards)",
        value=share,
        warning=warning,
        levers=_lever_texts(ruleset_id, NEVER_PLAYED) if warning else (),
        deck=deck,
    )


def warning_sentence(figure: HealthFigure) -> str | None:
    """The figure's warning as a sentence for a page, or None when it has none: a capital first letter and a full
    stop, except that a warning about one deck starts with the deck's name, which keeps its case as written."""
    if not figure.warning:
        return None
    text = figure.warning if figure.deck is not None else figure.warning[:1].upper() + figure.warning[1:]
    return text if text.endswith(".") else text + "."


def health_lines(health: GameHealth) -> list[str]:
    """The health as lines of text (the command line's text output and the report's words)."""
    lines = []
    for figure in health.figures:
        lines.append(f"{figure.label}: {figure.summary}")
        if figure.measured:
            lines.append(f"  healthy: {figure.healthy}; Ludii: {figure.ludii}")
        if figure.warning:
            lines.append(f"  WARNING: {figure.warning}")
        if figure.levers:
            lines.append("  rule options that move it (measured, docs/simulation.md): " + "; ".join(figure.levers))
    return lines


# Which rule options move the match length (`workbench health SET --length-options`): the health check's pairs, played
# under the rule options as given and under each other reading of each option that can move it, on the same seeds.

LENGTH_OPTIONS_MATCHES_PER_PAIR = POWER_CURVE_DEFAULTS.matches_per_pair
"""Matches per ordered pair of decks for each rule reading that `length_options` plays: the health check's own 2,000,
so its reading "as given" rests on the very matches of `game_health` with the same seed. Measured on this project's
2-core machine, warm, the whole `workbench health SET --length-options` (docs/simulation.md, "Which rule options move
the length"): circles/circle_starter 3.2 s, souls/ashfall 6.9 s, source/valley_of_deadlife (the slowest engine)
13.7 s, so no smaller budget is needed."""

LENGTH_MIN_CHANGE = 0.1
"""A reading "moves" the length when the 95% interval of its change (paired by seed) excludes 0 and the change is
at least this many turns: a tenth of a turn, one match in ten a turn longer or shorter. A smaller change beyond its
interval is measured, and said to be negligible."""

LENGTH_EFFECTS = ("lengthens", "shortens", "negligible", "no measurable change", "no change")
"""What a reading does to the length: moves it either way (beyond its interval, by `LENGTH_MIN_CHANGE` or more), moves
it by less, moves it within its interval only, or leaves every match's length as it was."""

TURN_CAP_LEFT_OUT = (
    "the turn cap is the simulator's, not a reading of the rules: it ends stalled matches, so it moves only the "
    "length of the matches that reach it (the health check's turn-cap figure counts them)"
)
SEARCH_LEFT_OUT = (
    "a setting of the search policy, not a rule: it changes how the search policy plays (only when it plays), not "
    "the game"
)
TEXT_LEFT_OUT = "takes a name or a file, not one of a list of readings"
NOT_IN_ENGINE = (
    "changes nothing the match engine is given for these cards (a card or deck check, or a reading these cards never "
    "meet), so no match could change"
)
WHOLE_GAME_LEFT_OUT = "plays whole games instead of matches between the decks; a whole game's length is the rules'"


@dataclass(frozen=True)
class LengthReading:
    """One rule reading's matches: their length against the reading as given, on the same seeds."""

    option: str | None
    """The option changed (None: the rule options as given)."""
    value: OptionValue | None
    """Its value in this reading (None for the options as given)."""
    matches: int
    """Matches played (every pair's)."""
    mean_turns: float
    """Mean match length in turns (each player's turn counts one)."""
    low: float
    """Lower end of the mean's 95% normal interval."""
    high: float
    """Upper end of the mean's 95% normal interval."""
    median_turns: float
    """Median match length."""
    change: float
    """Mean change in length against the options as given, match by match on the same seeds (0 for those)."""
    change_low: float
    """Lower end of the change's 95% normal interval (paired by seed)."""
    change_high: float
    """Upper end of the change's 95% normal interval (paired by seed)."""
    changed_matches: int
    """Matches whose length differs from the same seed's under the options as given."""
    first_player: Rate
    """The first player's win rate (draws half), with its Wilson interval."""
    turn_cap_hits: float | None
    """Share of matches that reached the turn cap (None without one)."""
    dearest_in_time: float | None
    """The mean, over the decks' cards of the dearest cost, of the share of their deck's matches in which the card
    was played with a round of its side left (the power curve's `played_in_time`); None when the engine keeps no such
    counter or no card has a cost."""
    effect: str
    """One of `LENGTH_EFFECTS`, or `as given` for the options as given."""
    same_matches_as: str | None = None
    """The label of an earlier reading that gives the engine the very same cards and rules, whose matches this one
    shares rather than playing them again (None: its own matches)."""

    @property
    def label(self) -> str:
        """`key=value` as `--option` takes it, or `as given`."""
        if self.option is None:
            return "as given"
        return f"{self.option}={_option_value_text(self.value)}"

    @property
    def moves(self) -> bool:
        """True when the reading lengthens or shortens the matches (beyond its interval, by `LENGTH_MIN_CHANGE` or
        more)."""
        return self.effect in ("lengthens", "shortens")

    def sentence(self, base: LengthReading) -> str:
        """`direct_damage=one_per_attacker lengthens matches from 3.1 to 4.6 turns [4.5, 4.6] (+1.46 [+1.44, +1.48]
        a match, paired by seed)`."""
        digits = 1 if abs(self.change) >= 0.3 else 2
        verb = self.effect if self.moves else "changes"
        return (
            f"{self.label} {verb} matches from {base.mean_turns:.{digits}f} to {self.mean_turns:.{digits}f} turns "
            f"[{self.low:.{digits}f}, {self.high:.{digits}f}] ({self.change:+.2f} [{self.change_low:+.2f}, "
            f"{self.change_high:+.2f}] a match, paired by seed)"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "option": self.option,
            "value": self.value,
            "label": self.label,
            "matches": self.matches,
            "mean_turns": self.mean_turns,
            "low": self.low,
            "high": self.high,
            "median_turns": self.median_turns,
            "change": self.change,
            "change_low": self.change_low,
            "change_high": self.change_high,
            "changed_matches": self.changed_matches,
            "effect": self.effect,
            "moves": self.moves,
            "first_player_win_rate": self.first_player.value,
            "first_player_low": self.first_player.low,
            "first_player_high": self.first_player.high,
            "turn_cap_hits": self.turn_cap_hits,
            "dearest_in_time": self.dearest_in_time,
            "same_matches_as": self.same_matches_as,
        }


@dataclass(frozen=True)
class LengthOptions:
    """Which rule options move the match length, measured (`length_options`)."""

    baseline: LengthReading
    """The rule options as given (the ruleset's defaults, unless options were set)."""
    readings: list[LengthReading]
    """Every other reading played, one option changed at a time, by how much it moves the length (most first)."""
    left_out: list[dict[str, Any]]
    """Options (or values of them) not played: option, values, reason."""
    meta: dict[str, Any] = field(default_factory=dict)
    """Provenance (ruleset and engine versions, the options as given, seed, matches, policy, card-set hash), the
    decks, pairs and matches per pair, `readings_played` (readings with matches of their own, the options as given
    included) and `readings_measured` (every reading, those sharing an earlier one's matches too), the options that
    differ from the defaults
    (`options_given`), the turn cap, the cost axis, the dearest cost and its cards, `min_change`."""

    @property
    def moving(self) -> list[LengthReading]:
        """The readings that move the length, most first."""
        return [reading for reading in self.readings if reading.moves]

    def frame(self) -> pd.DataFrame:
        """One row per reading, the options as given first (a table for a page or a CSV)."""
        return pd.DataFrame([reading.to_json() for reading in [self.baseline, *self.readings]])

    def same_run(self, meta: dict[str, Any], decks: Sequence[str]) -> bool:
        """True when `meta` (another result's provenance) and `decks` are this measurement's card set, decks, seed,
        rule options and policy."""
        return (
            meta.get("cardset_hash") == self.meta.get("cardset_hash")
            and meta.get("seed") == self.meta.get("seed")
            and dict(meta.get("options") or {}) == dict(self.meta.get("options") or {})
            and list(meta.get("policies") or [])[:1] == list(self.meta.get("policies") or [])[:1]
            and sorted(decks) == sorted(self.meta.get("decks") or [])
        )

    def moving_text(self, limit: int = 3) -> str:
        """The readings that move the length in words (the first `limit`, then how many more), or that none does."""
        moving = self.moving
        if not moving:
            return (
                f"no rule option measured moves it by {LENGTH_MIN_CHANGE:g} turns or more beyond its interval "
                f"({len(self.readings)} readings, {self.baseline.mean_turns:.1f} turns as given)"
            )
        shown = "; ".join(reading.sentence(self.baseline) for reading in moving[:limit])
        more = len(moving) - limit
        return shown + (f"; and {more} more reading{'s' if more != 1 else ''}" if more > 0 else "")

    def left_out_groups(self) -> list[tuple[list[str], str]]:
        """The options not played, grouped by why: (names as `key` or `key=value or value`, the reason)."""
        by_reason: dict[str, list[str]] = {}
        for entry in self.left_out:
            values = entry["values"]
            name = entry["option"] + (
                "=" + " or ".join(_option_value_text(value) for value in values) if values else ""
            )
            by_reason.setdefault(entry["reason"], []).append(name)
        return [(names, reason) for reason, names in by_reason.items()]

    def to_json(self) -> dict[str, Any]:
        return {
            **self.meta,
            "baseline": self.baseline.to_json(),
            "readings": [reading.to_json() for reading in self.readings],
            "moving": [reading.label for reading in self.moving],
            "left_out": self.left_out,
        }


def _option_value_text(value: OptionValue | None) -> str:
    """A value as `--option` takes it: true / false, numbers as written."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def length_readings(
    ruleset: Ruleset, options: Mapping[str, OptionValue]
) -> tuple[list[tuple[str, OptionValue]], list[dict[str, Any]]]:
    """The readings `length_options` may play, one option changed at a time from `options` (resolved): every other
    choice of an option with choices, the other value of a true/false option, and a step of one down and up from a
    number option's value within its range; and the options left out with why (the turn cap, the search policy's
    settings, options that take a name or a file, readings that ask for whole games)."""
    readings: list[tuple[str, OptionValue]] = []
    left_out: list[dict[str, Any]] = []
    for option in ruleset.options:
        current = options.get(option.key, option.default)
        if option.key == "turn_cap":
            left_out.append({"option": option.key, "values": [], "reason": TURN_CAP_LEFT_OUT})
            continue
        if option.key.startswith("search_"):
            left_out.append({"option": option.key, "values": [], "reason": SEARCH_LEFT_OUT})
            continue
        values: list[OptionValue]
        if isinstance(option.default, bool):
            values = [not bool(current)]
        elif option.choices:
            values = [choice for choice in option.choices if choice != current]
        elif option.is_number and isinstance(current, (int, float)):
            values = []
            for step in (-1, 1):
                value = current + step
                low = option.minimum if option.minimum is not None else value
                high = option.maximum if option.maximum is not None else value
                if low <= value <= high:
                    values.append(int(value) if isinstance(option.default, int) else float(value))
        else:
            left_out.append({"option": option.key, "values": [], "reason": TEXT_LEFT_OUT})
            continue
        whole = [value for value in values if is_full_game(ruleset, {**options, option.key: value})]
        if whole:
            left_out.append({"option": option.key, "values": whole, "reason": WHOLE_GAME_LEFT_OUT})
        readings.extend((option.key, value) for value in values if value not in whole)
    return readings, left_out


def _same_value(a: Any, b: Any) -> bool:
    """Two compiled values (arrays, containers, scalars) are equal; a pair that cannot be compared is not."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (
            isinstance(a, np.ndarray)
            and isinstance(b, np.ndarray)
            and a.shape == b.shape
            and a.dtype == b.dtype
            and bool(np.array_equal(a, b, equal_nan=a.dtype.kind == "f"))
        )
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_value(a[key], b[key]) for key in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b, strict=True))
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 (a value without a plain equality is taken as different: it is then played)
        return False


def _same_compiled(a: CompiledCards, b: CompiledCards) -> bool:
    """True when the engine is given the same cards and rules by both: then every match is the same (an engine's
    batch reads only the compiled cards, the decks, the seeds and the policies)."""
    return (
        a.names == b.names
        and all(_same_value(getattr(a, name), getattr(b, name)) for name in ("table", "cost", "slot", "options"))
        and _same_value(a.extra, b.extra)
    )


def _reading_figures(
    option: str | None,
    value: OptionValue | None,
    pairs: Sequence[PairResult],
    base_turns: np.ndarray | None,
    turn_cap: int | None,
    dearest: dict[str, Any],
) -> tuple[LengthReading, np.ndarray]:
    """One reading's figures from its pairs' results (`base_turns`: the options as given, match by match; None for
    those themselves)."""
    matches = pd.concat([pair.results.matches for pair in pairs], ignore_index=True)
    turns = matches["turns"].to_numpy(float)
    mean = float(turns.mean())
    half, _ = _mean_interval(turns)
    difference = np.zeros_like(turns) if base_turns is None else turns - base_turns
    change = float(difference.mean())
    change_half, _ = _mean_interval(difference)
    changed = int(np.count_nonzero(difference))
    score = float((matches["winner"] == matches["first_player"]).sum()) + 0.5 * float(
        (matches["winner"] == "draw").sum()
    )
    if base_turns is None:
        effect = "as given"
    elif changed == 0:
        effect = "no change"
    elif change - change_half <= 0 <= change + change_half:
        effect = "no measurable change"
    elif abs(change) < LENGTH_MIN_CHANGE:
        effect = "negligible"
    else:
        effect = "lengthens" if change > 0 else "shortens"
    reading = LengthReading(
        option=option,
        value=value,
        matches=len(turns),
        mean_turns=mean,
        low=mean - half,
        high=mean + half,
        median_turns=float(np.median(turns)),
        change=change,
        change_low=change - change_half,
        change_high=change + change_half,
        changed_matches=changed,
        first_player=Rate.of(score, len(turns)),
        turn_cap_hits=float((turns >= turn_cap).mean()) if turn_cap is not None else None,
        dearest_in_time=_dearest_in_time(pairs, dearest),
        effect=effect,
    )
    return reading, turns


def _dearest_cards(compiled: CompiledCards, decks: Sequence[Deck]) -> dict[str, Any]:
    """The dearest cost among the decks' cards and those cards (by name), and each deck's card names."""
    members = {deck.name: {compiled.names[int(i)] for i in np.unique(compiled.deck_array(deck))} for deck in decks}
    costs = {
        compiled.names[i]: float(compiled.cost[i])
        for i in range(len(compiled.names))
        if compiled.names[i] in set().union(*members.values()) and not math.isnan(float(compiled.cost[i]))
    }
    if not costs:
        return {"cost": None, "cards": [], "members": members}
    dearest = max(costs.values())
    return {"cost": dearest, "cards": sorted(c for c, v in costs.items() if v == dearest), "members": members}


def _dearest_in_time(pairs: Sequence[PairResult], dearest: dict[str, Any]) -> float | None:
    """The mean, over the dearest cards, of the share of their deck's matches (every seat of every pair) in which the
    card was played with a round of its side left."""
    cards = dearest["cards"]
    if not cards:
        return None
    in_time = dict.fromkeys(cards, 0.0)
    seats = dict.fromkeys(cards, 0)
    for pair in pairs:
        counters = pair.results.counters
        if "matches_played_with_a_round_left" not in counters:
            return None
        for side, deck in (("A", pair.deck_a), ("B", pair.deck_b)):
            rows = counters[(counters["deck"] == side) & counters["card"].isin(cards)]
            for card, count in zip(rows["card"], rows["matches_played_with_a_round_left"], strict=True):
                if card in dearest["members"][deck.name]:
                    in_time[card] += float(count)
                    seats[card] += len(pair.results.matches)
    shares = [in_time[card] / seats[card] for card in cards if seats[card]]
    return float(np.mean(shares)) if shares else None


def length_options(
    cardset: CardSet,
    decks: Sequence[Deck],
    matches_per_pair: int = LENGTH_OPTIONS_MATCHES_PER_PAIR,
    run: RunSettings = RunSettings(),
) -> LengthOptions:
    """Which rule options move the match length, measured: every ordered pair of `decks` (the health check's pairs
    and seeds, `matches_per_pair` each) played under the rule options as given (`run.options` over the ruleset's
    defaults) and under each reading of `length_readings` (one option changed at a time), on the same seeds for every
    reading (common random numbers), so each reading's change in length is paired match by match. A reading that
    changes nothing the engine is given for these cards (`_same_compiled`) is not played: it is left out with why.

    Each reading gets its mean length with its 95% interval, its change against the options as given with its 95%
    interval (paired by seed), the first player's win rate, the turn-cap share and the share of matches in which the
    decks' dearest cards were played in time; the readings are sorted by how much they move the length. Progress
    goes to `run.progress` over every reading's matches. Whole games (`game=full`) are refused: their length is fixed
    by the rules."""
    if is_full_game(cardset.ruleset, run.options):
        raise WorkbenchInputError(
            "which rule options move the match length is measured on matches between decks, not on whole games "
            "(whose length the rules fix).",
            expected="no --option game=full with --length-options",
        )
    if not decks:
        raise WorkbenchInputError(
            "the length options need at least one deck: every ordered pair of the decks is played.",
            expected="one or more --deck files or names, or a set with decks of its own",
        )
    engine, compiled, resolved = compile_for(cardset, run.options)
    policy_word(run.policy, engine.policies, engine.search_settings)  # an unknown policy fails before any match
    ruleset = cardset.ruleset
    candidates, left_out = length_readings(ruleset, resolved)
    readings: list[tuple[str, OptionValue, int]] = []
    distinct: list[CompiledCards] = []
    silent: dict[str, list[OptionValue]] = {}
    for key, value in candidates:
        try:
            _, other, _ = compile_for(cardset, {**resolved, key: value})
        except WorkbenchInputError as error:
            left_out.append({"option": key, "values": [value], "reason": f"cannot be played with these cards: {error}"})
            continue
        if _same_compiled(compiled, other):
            silent.setdefault(key, []).append(value)
            continue
        # Two readings that give the engine the same cards and rules (SOURCE's mirrored map alignments) play the
        # same matches: the second shares the first's instead of playing them again.
        twin = next((index for index, played in enumerate(distinct) if _same_compiled(played, other)), None)
        if twin is None:
            distinct.append(other)
            twin = len(distinct) - 1
        readings.append((key, value, twin))
    left_out.extend({"option": key, "values": values, "reason": NOT_IN_ENGINE} for key, values in silent.items())
    cap_value = resolved.get("turn_cap")
    turn_cap = int(cap_value) if isinstance(cap_value, (int, float)) and not isinstance(cap_value, bool) else None
    dearest = _dearest_cards(compiled, decks)
    pairs_count = len(decks) ** 2
    per_reading = pairs_count * matches_per_pair
    total = per_reading * (len(distinct) + 1)
    progress = run.progress

    def play(index: int, options: Mapping[str, OptionValue]) -> list[PairResult]:
        def report(done: int, _total: int) -> None:
            if progress:
                progress(index * per_reading + done, total)

        return play_every_pair(cardset, decks, matches_per_pair, replace(run, options=options, progress=report))

    baseline, base_turns = _reading_figures(None, None, play(0, resolved), None, turn_cap, dearest)
    played: dict[int, tuple[str, list[PairResult]]] = {}
    measured = []
    for key, value, twin in readings:
        shared = played.get(twin)
        pairs = shared[1] if shared else play(twin + 1, {**resolved, key: value})
        reading = _reading_figures(key, value, pairs, base_turns, turn_cap, dearest)[0]
        if shared:
            reading = replace(reading, same_matches_as=shared[0])
        else:
            played[twin] = (reading.label, pairs)
        measured.append(reading)
    # Those that move the length first, then by how much; equal changes in the ledger's order.
    order = {effect: place for place, effect in enumerate(LENGTH_EFFECTS)}
    ledger = {reading.label: place for place, reading in enumerate(measured)}
    measured.sort(key=lambda r: (not r.moves, -abs(r.change), order.get(r.effect, 0), ledger[r.label]))
    meta = provenance(cardset, engine, resolved, run.seed, total, (run.policy, run.policy))
    meta |= {
        "matches_per_pair": matches_per_pair,
        "decks": [deck.name for deck in decks],
        "pairs": pairs_count,
        "readings_played": len(distinct) + 1,
        "readings_measured": len(measured) + 1,
        "options_given": {key: value for key, value in resolved.items() if value != ruleset.option(key).default},
        "turn_cap": turn_cap,
        "cost_axis": engine.cost_axis,
        "dearest_cost": dearest["cost"],
        "dearest_cards": dearest["cards"],
        "min_change": LENGTH_MIN_CHANGE,
    }
    return LengthOptions(baseline, measured, left_out, meta)


def length_options_lines(result: LengthOptions) -> list[str]:
    """The measurement as lines of text (the command line's `--length-options`)."""
    meta = result.meta
    base = result.baseline
    given = meta.get("options_given") or {}
    as_given = (
        "the ruleset's defaults"
        if not given
        else "the options as given (" + ", ".join(f"{k}={_option_value_text(v)}" for k, v in given.items()) + ")"
    )
    axis = str(meta.get("cost_axis", "cost"))
    dearest = meta.get("dearest_cost")
    twins = int(meta.get("readings_measured", 0)) - int(meta.get("readings_played", 0))
    shared = (
        f"; {twins} more reading{'s' if twins != 1 else ''} that give{'s' if twins == 1 else ''} the engine the same "
        f"cards and rules as an earlier one share{'s' if twins == 1 else ''} its matches"
        if twins > 0
        else ""
    )

    def said(reading: LengthReading) -> str:
        return reading.label + (f" (the matches of {reading.same_matches_as})" if reading.same_matches_as else "")

    def extras(reading: LengthReading) -> str:
        parts = [f"first player wins {_rate_text(reading.first_player)}"]
        if reading.turn_cap_hits:
            parts.append(f"turn cap reached in {_percent(reading.turn_cap_hits)}")
        if reading.dearest_in_time is not None and dearest is not None:
            parts.append(f"cards of {axis} {dearest:g} played in time in {_played_percent(reading.dearest_in_time)}")
        return "; ".join(parts)

    lines = [
        f"which rule options move the match length (measured): every ordered pair of the decks "
        f"{', '.join(meta['decks'])} ({meta['pairs']} pairs), {meta['matches_per_pair']:,} matches per pair for each "
        f"of {meta['readings_played']} rule readings ({as_given}, then one option changed at a time{shared}), seed "
        f"{meta['seed']}, {meta['policies'][0]}, the same seeds for every reading, so each change is paired match by "
        "match; "
        f"{meta['matches']:,} matches in all",
        f"  as given: matches last {base.mean_turns:.1f} turns [{base.low:.1f}, {base.high:.1f}], median "
        f"{base.median_turns:g}; {extras(base)}",
    ]
    if dearest is not None:
        lines.append(
            f"  ({axis} {dearest:g} is the decks' dearest: {', '.join(meta['dearest_cards'])}; in time: the mean "
            "over those cards of the share of their deck's matches in which the card was played with a round of its "
            "side left)"
        )
    moving = result.moving
    if moving:
        lines.append(
            f"  moves the length (the 95% interval of the change excludes 0, by {LENGTH_MIN_CHANGE:g} turns or more):"
        )
        lines.extend(
            f"    {reading.sentence(base)}; {extras(reading)}"
            + (f" (the matches of {reading.same_matches_as})" if reading.same_matches_as else "")
            for reading in moving
        )
    else:
        lines.append(f"  no reading moves the length by {LENGTH_MIN_CHANGE:g} turns or more beyond its interval")
    rest = [reading for reading in result.readings if not reading.moves]
    for effect in LENGTH_EFFECTS[2:]:
        named = [reading for reading in rest if reading.effect == effect]
        if named:
            lines.append(
                f"  {effect}: "
                + ", ".join(
                    f"{said(reading)} ({reading.change:+.2f} [{reading.change_low:+.2f}, {reading.change_high:+.2f}])"
                    if effect != "no change"
                    else said(reading)
                    for reading in named
                )
            )
    for names, reason in result.left_out_groups():
        lines.append(f"  not played: {', '.join(names)}: {reason}")
    return lines


# Whole games (`--option game=full`): the same figures, measured on whole games of the market game.


def full_game_health(
    cardset: CardSet,
    games: int | None = None,
    run: RunSettings = RunSettings(),
    *,
    thresholds: HealthThresholds = HEALTH_THRESHOLDS,
) -> GameHealth:
    """The game's health over whole games (`--option game=full`): `games` of them (default
    `FULL_GAME_DEFAULTS.health_games`) from `run.seed`, every seat playing `run.policy`, played by
    `workbench.full_game.run_full_games` (game k from `SeedSequence(seed).spawn(games)[k]`, as `simulate --option
    game=full` plays them), reporting each game to `run.progress`. No decks: a whole game builds its decks from the
    store. The figures are `health_of_full_games`'."""
    count = FULL_GAME_DEFAULTS.health_games if games is None else games
    result = run_full_games(
        cardset, run.options, count, run.seed, run.policy, progress=run.progress, workers=run.workers
    )
    return health_of_full_games(result, thresholds)


def health_of_full_games(result: FullGames, thresholds: HealthThresholds = HEALTH_THRESHOLDS) -> GameHealth:
    """The health figures of whole games already played (a `run_full_games` result), in `FIGURE_KEYS` order:

    - first player: the share of games won by the seat that opened the first tournament (a shared first place
      counts its share), against the fair share of one in the number of seats;
    - seat placement: the first seat's final place against the other seats' mean, per game, with the mean place
      and VP of every seat clockwise from it;
    - length: by the rules every game plays its three tournaments, so no figure, except in Duel Mode (a game ends
      when a seat has won two);
    - turn cap: a whole game has none (said in words);
    - draws: games whose first place is still shared after every tie-break;
    - never played: store cards no seat bought in any game, and those bought in fewer than
      `thresholds.rarely_bought` of the games;
    - leader at mid-game: the share of games won by the single leader after the middle tournament.

    Every share has its 95% Wilson interval and every mean its 95% normal interval, over the games."""
    records = result.records
    if not records or not records.get("games"):
        raise WorkbenchInputError(
            "these whole games carry no per-game records, so their health cannot be measured.",
            expected="whole games from workbench.full_game.run_full_games",
        )
    meta = dict(result.meta)
    ruleset_id = str(meta["ruleset"])
    games = records["games"]
    players = int(records["players"])
    duel = bool(records["duel"])
    figures = [
        _whole_first_seat_figure(games, players, thresholds),
    ]
    placement, positions = _whole_seat_figure(games, players, duel, thresholds)
    figures.append(placement)
    length, lengths, length_summary = _whole_length_figure(games, duel, bool(records["prerelease"]))
    figures.append(length)
    figures.append(_whole_turn_cap_figure(ruleset_id, int(records["market_actions"]), thresholds))
    figures.append(_whole_draws_figure(games, ruleset_id, thresholds))
    never_figure, store_rows = _whole_never_bought_figure(records["store"], len(games), thresholds)
    figures.append(never_figure)
    figures.append(_whole_mid_game_figure(games, players, duel, thresholds))
    meta |= {
        "game": "full",
        "games": len(games),
        "players": players,
        "two_player_rules": "duel" if duel else ("normal" if players == 2 else None),
        "turn_cap": None,
        "thresholds": dict(thresholds.__dict__),
        "dollars_left_mean": records["dollars_left_mean"],
        "cards_short_in_deals_mean": records["cards_short_in_deals_mean"],
    }
    return GameHealth(
        figures,
        lengths,
        length_summary,
        pd.DataFrame(store_rows),
        pd.DataFrame(),
        pd.DataFrame(),
        meta,
        whole_game={"positions": positions, "store_cards": store_rows},
    )


def _win_shares(game: dict[str, Any]) -> list[float]:
    """Each seat's share of the game's win: 1 for a sole winner, 1/k for each of k seats sharing first place."""
    winners = sum(1 for place in game["rank"] if place == 1)
    return [1.0 / winners if place == 1 else 0.0 for place in game["rank"]]


def _whole_first_seat_figure(
    games: Sequence[dict[str, Any]], players: int, thresholds: HealthThresholds
) -> HealthFigure:
    """The share of games the seat that opened the first tournament won (Ludii's AdvantageP1), against 1/players."""
    score = sum(_win_shares(game)[game["first_seat"]] for game in games)
    rate = Rate.of(score, len(games))
    fair = 1.0 / players
    # The tournament's band (45% to 55% around an even 50%) moved to the fair share of this many seats.
    low, high = fair - (0.5 - thresholds.first_player_low), fair + (thresholds.first_player_high - 0.5)
    side = _outside(rate.low, rate.high, low, high)
    summary = (
        f"the seat that opens the first tournament wins {_rate_text(rate)} of {len(games):,} whole games (a shared "
        f"first place counts its share; fair with {players} seats: {_percent(fair)})"
    )
    warning = None
    if side:
        distance = rate.value - high if side > 0 else low - rate.value
        strength = "a strong " if distance > thresholds.strong_advantage else "an "
        who = "advantage" if side > 0 else "disadvantage"
        warning = (
            f"the seat that opens the first tournament wins {_rate_text(rate)} of whole games (fair "
            f"{_percent(fair)}): {strength}{who} of the first seat"
        )
    return HealthFigure(
        key=FIRST_PLAYER,
        label="first seat's win share",
        summary=summary,
        healthy=f"{_percent(low)} to {_percent(high)}, {_limit(0.5 - thresholds.first_player_low)} either side of "
        "fair (the interval must lie wholly outside to warn)",
        ludii=f"AdvantageP1 {rate.value:.3f} (fair {fair:.3f})",
        value=rate.value,
        low=rate.low,
        high=rate.high,
        warning=warning,
    )


def _mean_with_interval(values: Sequence[float] | np.ndarray) -> tuple[float, float, float]:
    array = np.asarray(values, dtype=float)
    mean = float(array.mean())
    half, _ = _mean_interval(array)
    return mean, mean - half, mean + half


def _whole_seat_figure(
    games: Sequence[dict[str, Any]], players: int, duel: bool, thresholds: HealthThresholds
) -> tuple[HealthFigure, list[dict[str, Any]]]:
    """The first seat's final place minus the other seats' mean place, per game (negative: the first seat places
    better), and every seat clockwise from the first: mean place, mean final VP, win share."""
    gaps: list[float] = []
    places: list[list[float]] = [[] for _ in range(players)]
    totals: list[list[float]] = [[] for _ in range(players)]
    wins: list[list[float]] = [[] for _ in range(players)]
    for game in games:
        first = game["first_seat"]
        shares = _win_shares(game)
        for position in range(players):
            seat = (first + position) % players
            places[position].append(float(game["rank"][seat]))
            totals[position].append(float(game["total"][seat]))
            wins[position].append(shares[seat])
        others = [game["rank"][(first + k) % players] for k in range(1, players)]
        gaps.append(float(game["rank"][first]) - sum(others) / len(others))
    unit = "tournaments won" if duel else "final VP"
    positions = []
    for position in range(players):
        place, place_low, place_high = _mean_with_interval(places[position])
        total, total_low, total_high = _mean_with_interval(totals[position])
        win = Rate.of(sum(wins[position]), len(games))
        positions.append(
            {
                "position": position + 1,
                "mean_place": place,
                "place_low": place_low,
                "place_high": place_high,
                "mean_total": total,
                "total_low": total_low,
                "total_high": total_high,
                "win_share": win.value,
                "win_low": win.low,
                "win_high": win.high,
            }
        )
    gap, low, high = _mean_with_interval(gaps)
    limit = thresholds.seat_place_gap
    side = _outside(low, high, -limit, limit)
    by_position = "; ".join(
        f"{row['position']}. {row['mean_place']:.2f} ({row['mean_total']:.1f} {'won' if duel else 'VP'})"
        for row in positions
    )
    summary = (
        f"the first seat places {gap:+.2f} [{low:+.2f}, {high:+.2f}] against the other seats' mean (places 1 to "
        f"{players}; negative is better); mean place and {unit} by seat clockwise from it: {by_position}"
    )
    warning = None
    if side:
        better = "better" if gap < 0 else "worse"
        warning = (
            f"the seat that opens the first tournament places {abs(gap):.2f} places {better} than the others on "
            f"average [{abs(gap) - (high - gap):.2f}, {abs(gap) + (high - gap):.2f}]: an advantage of turn order"
        )
    figure = HealthFigure(
        key=SEAT_PLACEMENT,
        label="seat advantage (placement)",
        summary=summary,
        healthy=f"a gap within ±{limit:g} places",
        ludii="AdvantageP1, in Millennium Blades' own units (final place and VP)",
        value=gap,
        low=low,
        high=high,
        warning=warning,
    )
    return figure, positions


def _whole_length_figure(
    games: Sequence[dict[str, Any]], duel: bool, prerelease: bool
) -> tuple[HealthFigure, pd.DataFrame, dict[str, float]]:
    """Tournaments per game: fixed by the rules (three), except in Duel Mode (two or three)."""
    played = np.array([game["tournaments"] for game in games], dtype=float)
    counts = pd.Series(played.astype(int)).value_counts().sort_index()
    lengths = pd.DataFrame({"tournaments": counts.index.astype(int), "games": counts.to_numpy(dtype=int)})
    q1, median, q3 = (float(q) for q in np.quantile(played, [0.25, 0.5, 0.75]))
    length_summary = {
        "mean": float(played.mean()),
        "q1": q1,
        "median": median,
        "q3": q3,
        "min": float(played.min()),
        "max": float(played.max()),
    }
    if not duel:
        rounds = "a pre-release tournament and two deckbuilding rounds" if prerelease else "three deckbuilding rounds"
        return (
            HealthFigure(
                key=LENGTH,
                label="game length",
                summary=(
                    f"does not apply: by the rules every whole game plays {rounds}, each ended by a tournament "
                    f"({int(played.max())} tournaments in all {len(games):,} games), so its length is no measure of "
                    "play; the deckbuilding's length in actions is not recorded"
                ),
                healthy="",
                ludii="DurationTurns (fixed here by the rules)",
                measured=False,
            ),
            lengths,
            length_summary,
        )
    mean, low, high = _mean_with_interval(played)
    early = Rate.of(float((played < 3).sum()), len(played))
    summary = (
        f"Duel Mode games last {mean:.2f} tournaments on average [{low:.2f}, {high:.2f}]; {_rate_text(early)} "
        "end after two (a seat won both)"
    )
    return (
        HealthFigure(
            key=LENGTH,
            label="game length",
            summary=summary,
            healthy="two or three tournaments, as Duel Mode's rules say (no warning)",
            ludii=f"DurationTurns {mean:.2f} (in tournaments)",
            value=mean,
            low=low,
            high=high,
        ),
        lengths,
        length_summary,
    )


def _whole_turn_cap_figure(ruleset_id: str, market_actions: int, thresholds: HealthThresholds) -> HealthFigure:
    """A whole game has no turn cap: it ends after its tournaments, which the rules fix."""
    return HealthFigure(
        key=TURN_CAP,
        label="turn-cap hits",
        summary=(
            f"does not apply: a whole {ruleset_id} game has no turn cap; it ends after its tournaments. Each timer "
            f"segment of deckbuilding lets a seat take at most {market_actions} actions (option market_actions), "
            "which stands for the timer of the rules rather than cutting a game short, and how often a seat used "
            "them all is not recorded"
        ),
        healthy=f"at most {_limit(thresholds.max_turn_cap_share)} of games (where there is a cap)",
        ludii="Timeouts (none: no cap)",
        measured=False,
    )


def _whole_draws_figure(games: Sequence[dict[str, Any]], ruleset_id: str, thresholds: HealthThresholds) -> HealthFigure:
    """Games whose first place is still shared after every tie-break (Ludii's Drawishness)."""
    shared = sum(1 for game in games if sum(1 for place in game["rank"] if place == 1) > 1)
    return _drawish(
        Rate.of(float(shared), len(games)),
        "of whole games end with first place shared after every tie-break",
        f" ({shared:,})",
        "games",
        ruleset_id,
        thresholds,
    )


def _whole_never_bought_figure(
    store: Sequence[dict[str, Any]], games: int, thresholds: HealthThresholds
) -> tuple[HealthFigure, list[dict[str, Any]]]:
    """Store cards no seat bought in any game, and those bought in fewer than `rarely_bought` of the games."""
    rows = []
    for card in store:
        share = card["games_bought"] / games if games else 0.0
        rate = Rate.of(float(card["games_bought"]), games)
        rows.append(
            {
                **card,
                "games": games,
                "bought_share": share,
                "low": rate.low,
                "high": rate.high,
                "never_bought": card["games_bought"] == 0,
                "rarely_bought": 0 < share < thresholds.rarely_bought,
            }
        )
    never = [row["card"] for row in rows if row["never_bought"]]
    rare = [row for row in rows if row["rarely_bought"]]
    share = len(never) / len(rows) if rows else 0.0
    summary = (
        f"{len(never)} of {len(rows)} store cards never bought by any seat in {games:,} whole games ({_percent(share)})"
    )
    if never:
        summary += ": " + ", ".join(never)
    if rare:
        summary += f"; bought in fewer than {_limit(thresholds.rarely_bought)} of games: " + ", ".join(
            f"{row['card']} ({_played_percent(row['bought_share'])})" for row in rare
        )
    summary += " (cards also reach the seats free, in the deals, which are not counted)"
    warning = None
    if never or rare:
        parts = []
        if never:
            parts.append(
                f"{len(never)} of {len(rows)} store cards ({_percent(share)}) {'was' if len(never) == 1 else 'were'} "
                f"never bought: {', '.join(never)}"
            )
        if rare:
            parts.append(
                f"{len(rare)} {'more ' if never else ''}store card{' was' if len(rare) == 1 else 's were'} bought in "
                "fewer than "
                f"{_limit(thresholds.rarely_bought)} of games: {', '.join(row['card'] for row in rare)}"
            )
        warning = "; ".join(parts) + " (no power at its buy cost can be measured for a card the seats hardly buy)"
    figure = HealthFigure(
        key=NEVER_PLAYED,
        label="store cards never bought",
        summary=summary,
        healthy=f"every store card bought, in at least {_limit(thresholds.rarely_bought)} of the games",
        ludii="none (Ludii measures whole games; a card game adds its dead cards)",
        value=share,
        warning=warning,
    )
    return figure, rows


def _whole_mid_game_figure(
    games: Sequence[dict[str, Any]], players: int, duel: bool, thresholds: HealthThresholds
) -> HealthFigure:
    """The share of games won by the seat alone in the lead after the middle tournament (the first of three, half
    the game's tournaments rounded down), over the games with a single leader then (Ludii's Decisiveness, in
    tournaments)."""
    most = max(game["tournaments"] for game in games)
    middle = max(most // 2, 1)
    unit = "tournaments won" if duel else "VP (tournaments and the collections turned in before them)"
    score, led = 0.0, 0
    for game in games:
        if game["tournaments"] < middle:
            continue
        so_far = [vp[middle - 1] for vp in game["vp_after"]]
        best = max(so_far)
        leaders = [p for p, vp in enumerate(so_far) if vp == best]
        if len(leaders) != 1:
            continue
        led += 1
        score += _win_shares(game)[leaders[0]]
    label = "leader at mid-game"
    ludii = "Decisiveness, LeadChange (the leader by VP after the middle tournament)"
    healthy = (
        f"the seat ahead at mid-game (after tournament {middle} of {most}) wins at most "
        f"{_percent(thresholds.max_mid_game_leader)} of the games (comebacks are possible); fair with {players} seats: "
        f"{_percent(1 / players)}"
    )
    if not led:
        return HealthFigure(
            key=MID_GAME_LEADER,
            label=label,
            summary=f"not measured: no game had a single leader in {unit} after tournament {middle}",
            healthy=healthy,
            ludii=ludii,
            measured=False,
        )
    rate = Rate.of(score, led)
    warning = None
    if rate.low > thresholds.max_mid_game_leader:
        warning = (
            f"the seat ahead after tournament {middle} of {most} wins {_rate_text(rate)} of whole games: the game is "
            "mostly decided by then"
        )
    return HealthFigure(
        key=MID_GAME_LEADER,
        label=label,
        summary=(
            f"the seat alone in the lead in {unit} after tournament {middle} of {most} wins {_rate_text(rate)} of the "
            f"{led:,} games with a single leader then ({len(games) - led:,} had a shared lead)"
        ),
        healthy=healthy,
        ludii=ludii,
        value=rate.value,
        low=rate.low,
        high=rate.high,
        warning=warning,
    )
