"""The play layer, written once for every engine: how a match is played, whatever the game.

An engine brings its rules (`legal_actions`, `apply`, `is_over` on one state record) and its game's greedy scoring;
this package brings the rest (docs/simulation.md, *The engine contract*):

- `loop`: the match loop (`play_out`, `play_until`) and the batch loop (`new_batch`, `batch_loop`), compiled into
  each engine's kernels;
- `policies`: the policies' codes, their own parameters and generator, and epsilon-greedy;
- `search`: what every search policy shares (successive halving over the candidates, a rollout's points);
- `assembly`: the `Engine` record the workbench plays through and its batch and trace entry points.

`loop`, `policies` and `search` are kernels (numpy and numba only); `assembly` is plain Python. Nothing here imports
a ruleset, Streamlit, pandas or plotly.
"""
