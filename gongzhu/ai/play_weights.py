"""The learned play model's weights (:mod:`gongzhu.ai.learned`): data written by
``PYTHONPATH=. python3 bench/train_play_model.py --hands 300 --jobs 2``; do not edit."""

from typing import Any

#: the features the weights are for, in order
FEATURES = ('normal', 'lowest', 'highest', 'lowest of its suit', 'highest of its suit', 'rank', 'suit length', 'pig', 'goat', 'transformer', 'heart', 'heart rank', 'wins', 'wins points', 'wins last', 'higher out', 'lower out', 'spade over the pig', 'diamond over the goat')
#: one weight per situation (lead, follow, discard) and feature, situation-major
WEIGHTS = (
    0.283245, 0.204093, -0.402207, 0.832632, 0.103964, 0.112453, -1.019809, -0.62279, -0.06062, 0.030826, 0.419005, -1.121462, 0.0, 0.0, 0.0, 0.166886, 1.119875, -0.252763, -0.038535,
    0.225418, 0.440443, -0.183815, 0.440443, -0.183815, 0.449158, 0.0, -0.695694, 0.178114, 0.423601, -0.0, -1.093293, -0.019063, -0.46517, 0.215161, -1.544349, 1.544349, 0.179955, -1.38183,
    0.281893, 0.669468, -0.292251, 1.244092, 0.051031, 0.898273, -0.751524, 1.29819, -0.590104, 0.555134, -0.29277, 1.110226, 0.0, 0.0, 0.0, -0.869626, 1.231344, 0.498022, -0.781761,
)
#: how they were trained, and how well they explain the held-out plays (mean log chance a play)
TRAINED: dict[str, Any] = {'command': 'PYTHONPATH=. python3 bench/train_play_model.py --hands 300 --jobs 2', 'hands': 300, 'seed': 7000, 'budget': 10000, 'rounds': 400, 'l2': 0.001, 'plays': 11129, 'held_out_plays': 1237, 'held_out_log_likelihood': {'model': -1.1994, 'normal': -3.2824, 'any': -1.37}}
