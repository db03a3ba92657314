"""The group-probability approximation.

Each rule is a group "these cells hold k mines". A frontier cell starts at the mean of k/size
over its groups; then, group by group, the cells' probabilities are rescaled so that the group
sums to k, until nothing moves. Cells touching no number share what is left of the mine count.
Cheap and never exponential: the fallback when an exact enumeration would be too big.
"""

from __future__ import annotations

import numpy as np

from bot.solver.rules import Problem, bits

ROUNDS = 60
DEFAULT_DENSITY = 0.2  # only used when the board's total mine count is unknown


def group_probabilities(p: Problem) -> np.ndarray:
    n = len(p.cells)
    groups = [(np.array(bits(r.cells)), r.mines) for r in p.rules]
    prob = np.zeros(n)
    seen = np.zeros(n)
    for idx, k in groups:
        prob[idx] += k / len(idx)
        seen[idx] += 1
    frontier = seen > 0
    prob[frontier] /= seen[frontier]
    interior = ~frontier
    n_in = int(interior.sum())

    def spread() -> None:
        if n_in:
            if p.remaining is None:
                prob[interior] = DEFAULT_DENSITY
            else:
                left = p.remaining - float(prob[frontier].sum())
                prob[interior] = min(max(left / n_in, 0.0), 1.0)

    spread()
    for _ in range(ROUNDS):
        before = prob.copy()
        for idx, k in groups:
            total = prob[idx].sum()
            if total > 0:
                prob[idx] = np.minimum(prob[idx] * (k / total), 1.0)
        spread()
        if np.max(np.abs(prob - before)) < 1e-9:
            break
    return prob
