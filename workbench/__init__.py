"""Card-design and balance workbench.

Load card spreadsheets for five card games, validate every card against its
game's cost formula and every decklist against its construction rules, and
(later) simulate matches. See README.md for the two set-up commands.
"""

__version__ = "0.1.0"
