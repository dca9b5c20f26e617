"""What changed between two versions of a card set: cards, fields, findings and costs, as patch notes.

Cards are matched by name (ignoring case and spacing). A removed card and an
added card of the same kind whose names are close (difflib ratio at least
`RENAME_RATIO`) and whose other fields mostly agree are one card renamed: a
designer who fixes a typo in a name should not see "removed" and "added".
Findings are compared by what they say about which card, not by row, so
moving a row is not a change.

Power changes (`with_power_changes`) are simulated, not read: the old and new
version of each changed card are measured side by side in one power-curve run
of the new set (see its docstring), so the figures differ by the card alone.
"""

from __future__ import annotations

import difflib
import hashlib
import math
import operator
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pandas as pd

from workbench.cards import (
    CardEntry,
    CardSet,
    Deck,
    Finding,
    NameIndex,
    OptionValue,
    WorkbenchInputError,
    normalize_name,
    shown,
)
from workbench.run_settings import RunSettings
from workbench.validate import validate

RENAME_RATIO = 0.75
"""How alike two names must be (difflib's ratio, 0-1) for a removed and an added card to count as a rename."""
RENAME_FIELD_SHARE = 0.5
"""The share of a card's other fields that must be unchanged for a rename (so two different cards are not paired)."""


@dataclass(frozen=True)
class FieldChange:
    """One field of one card that differs between the versions."""

    field: str
    """The card-model field name."""
    column: str
    """The column header as the new sheet writes it."""
    old: Any
    """The old value (None when the old card had no such field)."""
    new: Any
    """The new value (None when the new card has no such field)."""


@dataclass(frozen=True)
class CardChange:
    """A card present in both versions (possibly renamed) whose fields differ."""

    name: str
    """The card's name in the new version."""
    old_name: str
    """The card's name in the old version (differs from `name` for a rename)."""
    row: int
    """The card's row in the new sheet (header = row 1)."""
    changes: tuple[FieldChange, ...]
    """Every field that differs, in column order (the name excluded)."""

    @property
    def renamed(self) -> bool:
        """True when the name changed."""
        return self.name != self.old_name


@dataclass(frozen=True)
class CostChange:
    """A card whose position on the cost axis or whose stat budget moved."""

    card: str
    """The card's name in the new version."""
    old_cost: float | None
    """Cost in the old version (None when it had none)."""
    new_cost: float | None
    """Cost in the new version."""
    old_budget: float | None
    """Stat budget in the old version."""
    new_budget: float | None
    """Stat budget in the new version."""


POWER_COLUMNS = (
    "card",
    "old_name",
    "old_cost",
    "new_cost",
    "old_power",
    "old_low",
    "old_high",
    "new_power",
    "new_low",
    "new_high",
    "change",
    "verdict",
)
"""The columns of `PowerComparison.frame`, in order."""


@dataclass(frozen=True)
class PowerComparison:
    """Simulated power of the changed and added cards in both versions, side by side."""

    frame: pd.DataFrame
    """One row per measured card (`POWER_COLUMNS`): old and new power with 95% intervals, their change, and the
    verdict (`stronger`, `weaker`, `within noise`, `added`, `removed`); the missing side of an added or removed card
    is NaN."""
    meta: dict[str, Any] = field(default_factory=dict)
    """Provenance of the run (ruleset and engine versions, options, seed, matches per card, policy, the new set's
    hash and `old_cardset_hash`), plus the names measured."""
    notes: list[str] = field(default_factory=list)
    """Cards or versions that could not be measured, and why."""

    def to_json(self) -> dict[str, Any]:
        """Plain data: rows (NaN as null), provenance and notes."""
        rows = [
            {key: (None if isinstance(value, float) and math.isnan(value) else value) for key, value in row.items()}
            for row in self.frame.to_dict("records")
        ]
        return {"cards": rows, "meta": self.meta, "notes": list(self.notes)}


@dataclass
class SetDiff:
    """Everything that changed from `old` to `new`."""

    old: CardSet
    """The earlier version."""
    new: CardSet
    """The later version."""
    added: list[CardEntry] = field(default_factory=list)
    """Cards only in the new version (and not a rename)."""
    removed: list[CardEntry] = field(default_factory=list)
    """Cards only in the old version (and not a rename)."""
    changed: list[CardChange] = field(default_factory=list)
    """Cards in both whose fields (or name) differ."""
    findings_appeared: list[Finding] = field(default_factory=list)
    """Findings the new version has that the old one did not."""
    findings_resolved: list[Finding] = field(default_factory=list)
    """Findings the old version had that the new one does not."""
    cost_changes: list[CostChange] = field(default_factory=list)
    """Cards whose cost or stat budget moved (from the ruleset's stat budget)."""
    power: PowerComparison | None = None
    """Simulated power before and after, when `with_power_changes` measured it."""
    deck_notes: list[str] = field(default_factory=list)
    """What became of decklists when cards were renamed (`Lantern Sprite renamed to Glow Wisp; deck ember_rush
    follows.`), given by whoever changed the decks; part of the patch notes, after the cards' lines."""

    @property
    def renamed(self) -> list[CardChange]:
        """The changed cards whose name changed."""
        return [change for change in self.changed if change.renamed]

    @property
    def cards_whose_play_changed(self) -> list[str]:
        """Names of the cards that may play differently: changed in a field (new name), removed (old), added (new)."""
        return (
            [c.name for c in self.changed if c.changes]
            + [_name(e) for e in self.removed]
            + [_name(e) for e in self.added]
        )

    @property
    def is_empty(self) -> bool:
        """True when nothing a player or designer would notice changed."""
        return not (self.added or self.removed or self.changed or self.findings_appeared or self.findings_resolved)

    def patch_notes(self) -> list[str]:
        """The changes as lines a player could read, most visible first."""
        lines: list[str] = []
        for entry in self.added:
            lines.append(f"New card: {_name(entry)} ({entry.card.kind}).")
        for entry in self.removed:
            lines.append(f"Removed: {_name(entry)}.")
        for change in self.changed:
            parts = [f"{c.column} {show_value(c.old)} -> {show_value(c.new)}" for c in change.changes]
            if change.renamed:
                head = f"Renamed: {change.old_name} -> {change.name}"
                lines.append(head + (f"; {', '.join(parts)}." if parts else "."))
            else:
                lines.append(f"{change.name}: {', '.join(parts)}.")
        lines.extend(f"Decks: {note}" for note in self.deck_notes)
        for finding in self.findings_resolved:
            lines.append(f"Fixed: {_finding_line(finding)}")
        for finding in self.findings_appeared:
            lines.append(f"New finding: {_finding_line(finding)}")
        if self.power is not None:
            lines.extend(_power_line(row) for row in self.power.frame.itertuples())
        return [shown(line) for line in lines]

    def to_json(self) -> dict[str, Any]:
        """The diff as plain data (for `--format json` and reports)."""
        return {
            "old": {
                "path": self.old.path,
                "name": self.old.name,
                "version": self.old.version,
                "hash": self.old.content_hash(),
            },
            "new": {
                "path": self.new.path,
                "name": self.new.name,
                "version": self.new.version,
                "hash": self.new.content_hash(),
            },
            "ruleset": {"id": self.new.ruleset.id, "version": self.new.ruleset.version},
            "added": [{"card": _name(e), "kind": e.card.kind, "row": e.row} for e in self.added],
            "removed": [{"card": _name(e), "kind": e.card.kind, "row": e.row} for e in self.removed],
            "changed": [
                {
                    "card": c.name,
                    "old_name": c.old_name,
                    "row": c.row,
                    "changes": [{"field": f.field, "column": f.column, "old": f.old, "new": f.new} for f in c.changes],
                }
                for c in self.changed
            ],
            "findings_appeared": [f.to_json() for f in self.findings_appeared],
            "findings_resolved": [f.to_json() for f in self.findings_resolved],
            "cost_changes": [vars(c) for c in self.cost_changes],
            "power_changes": self.power.to_json() if self.power is not None else None,
            "patch_notes": self.patch_notes(),
        }


def diff_cardsets(
    old: CardSet,
    new: CardSet,
    options: Mapping[str, OptionValue | str] | None = None,
    renamed: Mapping[str, str] | None = None,
) -> SetDiff:
    """Cards added, removed, renamed and changed; findings that appeared or went away; cost moves.

    `renamed` (old name -> new name) are renames known for certain (the app's editor saw the card's name cell
    change): they pair a removed card with an added one whatever their names and fields; other removed and added
    cards are paired when their names are close and their fields mostly agree.
    """
    if old.ruleset.id != new.ruleset.id:
        raise WorkbenchInputError(
            f"the old set is read as '{old.ruleset.id}' and the new one as '{new.ruleset.id}'; only two versions of "
            "one game's set can be compared.",
            path=new.path,
            expected=f"two '{old.ruleset.id}' card sets (use --ruleset to say which game)",
        )
    result = SetDiff(old=old, new=new)
    old_by_key = {normalize_name(_name(e)): e for e in old}
    new_by_key = {normalize_name(_name(e)): e for e in new}
    removed = [e for key, e in old_by_key.items() if key not in new_by_key]
    added = [e for key, e in new_by_key.items() if key not in old_by_key]
    renames = _known_renames(removed, added, renamed or {})
    paired = {id(entry) for pair in renames for entry in pair}
    renames += _pair_renames([e for e in removed if id(e) not in paired], [e for e in added if id(e) not in paired])
    renamed_old = {id(o) for o, _ in renames}
    renamed_new = {id(n) for _, n in renames}
    result.removed = [e for e in removed if id(e) not in renamed_old]
    result.added = [e for e in added if id(e) not in renamed_new]

    pairs = [(old_by_key[key], entry) for key, entry in new_by_key.items() if key in old_by_key] + renames
    for old_entry, new_entry in sorted(pairs, key=lambda pair: pair[1].row):
        changes = _field_changes(old_entry, new_entry, new)
        if changes or _name(old_entry) != _name(new_entry):
            result.changed.append(CardChange(_name(new_entry), _name(old_entry), new_entry.row, tuple(changes)))

    new_name_of = {_name(o): _name(n) for o, n in pairs}
    old_report = validate(old, options=options)
    new_report = validate(new, options=options)
    old_keys = {_finding_key(f, new_name_of): f for f in old_report.findings}
    new_keys = {_finding_key(f, {}): f for f in new_report.findings}
    result.findings_appeared = [f for key, f in new_keys.items() if key not in old_keys]
    result.findings_resolved = [f for key, f in old_keys.items() if key not in new_keys]
    result.cost_changes = _cost_changes(old, new, new_name_of, options)
    return result


def with_power_changes(
    diff: SetDiff,
    decks: Sequence[Deck],
    matches_per_card: int = 1_000,
    run: RunSettings = RunSettings(),
) -> SetDiff:
    """The diff with `power` filled: every changed, added and removed card's power before and after.

    Both versions of a card are measured in one run, in today's game: the old versions join the new set under the
    name `<old name> (before)`, and one power curve (`only=` the measured cards, `decks` read against the new set,
    the first the reference deck) plays each of them against the same reference deck, gauntlet, fillers and seeds.
    So the two figures differ by the card and by sampling, and nothing else. `verdict` says `stronger` or `weaker`
    only when the two 95% intervals do not overlap (a conservative test), else `within noise`. When nothing can be
    measured (no engine, no filler for any measured card's kind, ...) the frame is empty and `notes` says why.
    """
    from workbench.analysis import power_curve
    from workbench.judging import VerdictRule

    old_by_key = {normalize_name(_name(e)): e for e in diff.old}
    taken = {normalize_name(name) for name in diff.new.names}
    before_name: dict[str, str] = {}
    appended: list[CardEntry] = []
    # (old name, new name) of each measured card: None for the side a removed or added card lacks.
    pairs: list[tuple[str | None, str | None]] = [(c.old_name, c.name) for c in diff.changed if c.changes]
    pairs += [(_name(e), None) for e in diff.removed]
    for measured_old in [old for old, _ in pairs if old is not None]:  # every one so far: added cards come below
        label = f"{measured_old} (before)"
        while normalize_name(label) in taken:
            label += "'"
        taken.add(normalize_name(label))
        before_name[measured_old] = label
        entry = old_by_key[normalize_name(measured_old)]
        appended.append(CardEntry(entry.card.model_copy(update={"name": label}), entry.row))
    pairs += [(None, _name(e)) for e in diff.added]
    if not pairs:
        return replace(
            diff,
            power=PowerComparison(
                pd.DataFrame(columns=list(POWER_COLUMNS)), {}, ["No card changed a field, so no power moved."]
            ),
        )
    both = replace(diff.new, entries=[*diff.new.entries, *appended])
    measured = [name for old_name, new_name in pairs for name in (before_name.get(old_name or ""), new_name) if name]
    try:
        # Both versions on the same matches: no second look, whose matches depend on what it saw.
        curve = power_curve(both, decks, matches_per_card, run, only=measured, rule=VerdictRule(follow_up=1.0))
    except WorkbenchInputError as error:
        return replace(
            diff,
            power=PowerComparison(pd.DataFrame(columns=list(POWER_COLUMNS)), {}, [f"Power was not measured: {error}"]),
        )
    by_card = {row.card: row for row in curve.cards.itertuples()}
    notes = [
        f"{name.removesuffix(' (before)')} ({'old' if name in before_name.values() else 'new'} version) was not "
        "measured: a card needs a cost and a filler of its kind in the reference deck."
        for name in measured
        if name not in by_card
    ]
    rows = []
    for old_name, new_name in pairs:
        old_row = by_card.get(before_name.get(old_name or "", ""))
        new_row = by_card.get(new_name or "")
        if old_row is None and new_row is None:
            continue
        rows.append(
            {
                "card": new_name or old_name,
                "old_name": old_name,
                "old_cost": _field(old_row, "cost"),
                "new_cost": _field(new_row, "cost"),
                "old_power": _field(old_row, "power"),
                "old_low": _field(old_row, "low"),
                "old_high": _field(old_row, "high"),
                "new_power": _field(new_row, "power"),
                "new_low": _field(new_row, "low"),
                "new_high": _field(new_row, "high"),
                "change": _field(new_row, "power") - _field(old_row, "power"),
                "verdict": _verdict(old_row, new_row),
            }
        )
    meta = dict(curve.meta) | {"old_cardset_hash": diff.old.content_hash(), "measured": measured}
    meta["cardset_hash"] = diff.new.content_hash()
    return replace(diff, power=PowerComparison(pd.DataFrame(rows, columns=list(POWER_COLUMNS)), meta, notes))


def _field(row: Any, name: str) -> float:
    return float("nan") if row is None else float(getattr(row, name))


def _verdict(old_row: Any, new_row: Any) -> str:
    if old_row is None:
        return "added"
    if new_row is None:
        return "removed"
    if new_row.low > old_row.high:
        return "stronger"
    if new_row.high < old_row.low:
        return "weaker"
    return "within noise"


def _power_line(row: Any) -> str:
    def figure(power: float, low: float, high: float) -> str:
        return f"{power:+.3f} [{low:+.3f}, {high:+.3f}]"

    if row.verdict == "added":
        return f"Power: {row.card} (new) plays at {figure(row.new_power, row.new_low, row.new_high)}."
    if row.verdict == "removed":
        return f"Power: {row.card} (removed) played at {figure(row.old_power, row.old_low, row.old_high)}."
    old = figure(row.old_power, row.old_low, row.old_high)
    new = figure(row.new_power, row.new_low, row.new_high)
    return f"Power: {row.card} {old} -> {new}: {row.verdict}."


def _name(entry: CardEntry) -> str:
    return entry.card.name


def _comparable(entry: CardEntry) -> dict[str, Any]:
    data = entry.card.model_dump()
    data.pop("name", None)
    return data


def _field_changes(old: CardEntry, new: CardEntry, new_set: CardSet) -> list[FieldChange]:
    before, after = _comparable(old), _comparable(new)
    order = [column.field for column in new_set.ruleset.columns]
    names = sorted(set(before) | set(after), key=lambda f: order.index(f) if f in order else len(order))
    return [
        FieldChange(name, new_set.headers.get(name, name), before.get(name), after.get(name))
        for name in names
        if before.get(name) != after.get(name)
    ]


def _known_renames(
    removed: list[CardEntry], added: list[CardEntry], renamed: Mapping[str, str]
) -> list[tuple[CardEntry, CardEntry]]:
    """The removed and added cards that `renamed` (old name -> new name) says are one card."""
    added_by_key = {normalize_name(_name(entry)): entry for entry in added}
    wanted = {normalize_name(old): normalize_name(new) for old, new in renamed.items()}
    pairs = []
    for entry in removed:
        new_entry = added_by_key.pop(wanted.get(normalize_name(_name(entry)), ""), None)
        if new_entry is not None:
            pairs.append((entry, new_entry))
    return pairs


RENAME_SCAN_PAIRS = 40_000
"""Up to this many removed x added cards, every pair is weighed as a rename; past it, each removed card is weighed
against the added cards of its kind whose other fields are identical (a hash of them) and the `RENAME_SHORTLIST` whose
names share the most trigrams with its name."""
RENAME_SHORTLIST = 16
"""How many added cards, by name likeness, a removed card is weighed against past `RENAME_SCAN_PAIRS` (and how many of
those whose other fields are identical to its own)."""


def _pair_renames(removed: list[CardEntry], added: list[CardEntry]) -> list[tuple[CardEntry, CardEntry]]:
    """Greedy best-first pairing of removed and added cards that are one card renamed.

    Candidates come from hashing, not from all pairs once the cards are many: the added cards of the same kind whose
    other fields are identical, and those whose names look most alike (a trigram index); each candidate is then
    weighed as before (name ratio and share of equal fields), so a small diff pairs exactly as a full scan would."""
    if not removed or not added:
        return []
    fields = {id(entry): _comparable(entry) for entry in (*removed, *added)}
    values = {key: (tuple(sorted(data)), tuple(data[k] for k in sorted(data))) for key, data in fields.items()}
    keys = {id(entry): normalize_name(_name(entry)) for entry in (*removed, *added)}
    if len(removed) * len(added) <= RENAME_SCAN_PAIRS:
        pools = {id(old): list(range(len(added))) for old in removed}
    else:
        by_digest: dict[tuple[str, str], list[int]] = {}
        for number, new in enumerate(added):
            by_digest.setdefault((new.card.kind, _digest(fields[id(new)])), []).append(number)
        by_kind: dict[str, list[int]] = {}
        for number, new in enumerate(added):
            by_kind.setdefault(new.card.kind, []).append(number)
        indexes = {kind: NameIndex((keys[id(added[n])] for n in numbers), scan=0) for kind, numbers in by_kind.items()}
        bucket_indexes: dict[tuple[str, str], NameIndex] = {}
        pools = {}
        for old in removed:
            kind = old.card.kind
            if kind not in by_kind:
                continue
            bucket = (kind, _digest(fields[id(old)]))
            same_fields = by_digest.get(bucket, [])
            if len(same_fields) > RENAME_SHORTLIST:
                # Many identical cards but for the name: weigh the ones whose names look most alike.
                if bucket not in bucket_indexes:
                    bucket_indexes[bucket] = NameIndex((keys[id(added[n])] for n in same_fields), scan=0)
                shortlist = bucket_indexes[bucket].shortlist(keys[id(old)], RENAME_SHORTLIST)
                same_fields = [same_fields[n] for n in shortlist]
            alike = [by_kind[kind][n] for n in indexes[kind].shortlist(keys[id(old)], RENAME_SHORTLIST)]
            pools[id(old)] = list(dict.fromkeys(same_fields + alike))
    candidates = []
    for old in removed:
        # quick_ratio (an upper bound of the ratio) is symmetric: this matcher keeps the removed name's counts.
        bound = difflib.SequenceMatcher(None, "", keys[id(old)])
        for number in pools.get(id(old), ()):
            new = added[number]
            if old.card.kind != new.card.kind:
                continue
            (old_fields, old_values), (new_fields, new_values) = values[id(old)], values[id(new)]
            if old_fields == new_fields:
                same = sum(map(operator.eq, old_values, new_values)) / max(1, len(old_fields))
            else:
                before, after = fields[id(old)], fields[id(new)]
                fields_kept = set(before) | set(after)
                same = sum(before.get(k) == after.get(k) for k in fields_kept) / max(1, len(fields_kept))
            if same < RENAME_FIELD_SHARE:
                continue
            old_key, new_key = keys[id(old)], keys[id(new)]
            # The lengths and then the quick ratios bound the ratio from above: they skip only pairs that could not
            # be renames.
            if 2 * min(len(old_key), len(new_key)) < RENAME_RATIO * (len(old_key) + len(new_key)):
                continue
            bound.set_seq1(new_key)
            if bound.quick_ratio() < RENAME_RATIO:
                continue
            ratio = difflib.SequenceMatcher(None, old_key, new_key).ratio()
            if ratio >= RENAME_RATIO:
                candidates.append((ratio + same, old, new))
    pairs: list[tuple[CardEntry, CardEntry]] = []
    used: set[int] = set()
    for _, old, new in sorted(candidates, key=lambda c: -c[0]):
        if id(old) in used or id(new) in used:
            continue
        used |= {id(old), id(new)}
        pairs.append((old, new))
    return pairs


def _digest(fields: Mapping[str, Any]) -> str:
    """A hash of a card's fields but its name: two cards with the same digest differ by name alone."""
    return hashlib.blake2b(repr(sorted(fields.items())).encode(), digest_size=16).hexdigest()


def _finding_key(finding: Finding, rename: Mapping[str, str]) -> tuple[Any, ...]:
    # Row numbers move when rows are inserted; what a finding says about which card is what matters.
    card = rename.get(finding.card, finding.card) if finding.card else None
    return (finding.severity, finding.rule, card, finding.deck, str(finding.expected), str(finding.actual))


def _cost_changes(
    old: CardSet, new: CardSet, new_name_of: Mapping[str, str], options: Mapping[str, OptionValue | str] | None
) -> list[CostChange]:
    stat_budget = new.ruleset.stat_budget
    if stat_budget is None:
        return []
    resolved = new.ruleset.resolve_options(options)
    before = {new_name_of.get(p.card, p.card): p for p in stat_budget(old, resolved).points}
    after = {p.card: p for p in stat_budget(new, resolved).points}
    out = []
    for name, point in after.items():
        was = before.get(name)
        if was is None or (was.cost, was.budget) != (point.cost, point.budget):
            out.append(
                CostChange(
                    name,
                    None if was is None else was.cost,
                    point.cost,
                    None if was is None else was.budget,
                    point.budget,
                )
            )
    return out


def show_value(value: Any) -> str:
    """A cell value as a person reads it (lists joined with `; `, nothing as `(empty)`)."""
    if value is None or value == "" or value == ():
        return "(empty)"
    if isinstance(value, (tuple, list)):
        return "; ".join(str(v) for v in value)
    return str(value)


def _finding_line(finding: Finding) -> str:
    subject = f"{finding.card}: " if finding.card else ""
    return f"{subject}{finding.message} [{finding.rule}]"
