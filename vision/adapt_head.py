"""The adaptation's fitted heads (:mod:`vision.adapt`): die or floor, and the value, logistic
regressions over the shipped classifier's logits fitted with numpy only (Adam, ridge penalty)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

RIDGE = 0.1  # the linear terms' penalty (held out on the pip sources: 0.01 overfits 20 photos, 1 underfits)
PART = 0.5  # of a labelled die's side: a candidate smaller than this on it is a part of it (a pip)
STEPS = 250  # Adam steps of the head's fit
RATE = 0.05


@dataclass
class Head:
    """Two heads over standardised features ``x = (features − mean) / scale``:

    - die or floor: logit = the shipped classifier's (log p(die) − log p(background)) + x @ die_w + die_b;
    - the value, given a die: logits = ``trust`` × the shipped log probabilities of the values
      + x @ value_w + value_b, where only the classes in ``taught`` were fitted (the others keep
      trust 1 and zero terms: a value the table never showed is read as the network reads it).

    A die whose likeliest value by the shipped network is not taught keeps the shipped values'
    probabilities: the layer has not seen what that value looks like on this table.
    """

    mean: NDArray[Any]
    scale: NDArray[Any]
    die_w: NDArray[Any]
    die_b: NDArray[Any]
    value_w: NDArray[Any]
    value_b: NDArray[Any]
    taught: NDArray[Any]  # value classes (1..C-1, as in the backend's classes) the table showed
    trust: NDArray[Any]  # [k]: the taught values' logits weigh the network's log probabilities k times

    def probs(self, offsets: NDArray[Any], features: NDArray[Any]) -> tuple[NDArray[Any], NDArray[Any]]:
        """N×C offsets, N×F features → (N probabilities of a die, N×(C−1) of each value given one)."""
        x = (features[:, :len(self.mean)] - self.mean) / self.scale  # a head saved before later features
        values = offsets[:, 1:]
        die_logit = _logsumexp(values) - offsets[:, 0] + x @ self.die_w + self.die_b
        shipped = _softmax(values)
        adapted = _softmax(np.where(np.isin(np.arange(values.shape[1]) + 1, self.taught), self.trust[0], 1.0) * values
                           + x @ self.value_w + self.value_b)
        own = np.isin(np.argmax(values, axis=1) + 1, self.taught)
        return 1 / (1 + np.exp(-die_logit)), np.where(own[:, None], adapted, shipped)

    def die_probs(self, offsets: NDArray[Any], features: NDArray[Any]) -> NDArray[Any] | None:
        """N probabilities of a die, as :meth:`probs` gives them, from the first F' columns of
        the features only; None when the die head weighs a later column (it must see them all)."""
        k = min(features.shape[1], len(self.mean))
        if np.any(self.die_w[k:]):
            return None
        x = (features[:, :k] - self.mean[:k]) / self.scale[:k]
        die_logit = _logsumexp(offsets[:, 1:]) - offsets[:, 0] + x @ self.die_w[:k] + self.die_b
        p: NDArray[Any] = 1 / (1 + np.exp(-die_logit))
        return p

    def to_dict(self) -> dict[str, Any]:
        return {name: np.round(getattr(self, name), 6).tolist() for name in _HEAD_FIELDS}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Head:
        return cls(*(np.asarray(data[name], np.float64) for name in _HEAD_FIELDS))


_HEAD_FIELDS = ("mean", "scale", "die_w", "die_b", "value_w", "value_b", "taught", "trust")


def _logsumexp(z: NDArray[Any]) -> NDArray[Any]:
    top = z.max(axis=1)
    out: NDArray[Any] = top + np.log(np.exp(z - top[:, None]).sum(axis=1))
    return out


def _softmax(z: NDArray[Any]) -> NDArray[Any]:
    e = np.exp(z - z.max(axis=1, keepdims=True))
    p: NDArray[Any] = e / e.sum(axis=1, keepdims=True)
    return p


def _adam(gradient: Any, shapes: Sequence[tuple[int, ...]]) -> list[NDArray[Any]]:
    """:data:`STEPS` Adam steps from zeros; ``gradient(params)`` → their gradients. The
    parameters are views of one vector, stepped at once (a fit is 250 steps of small arrays:
    numpy's cost per call, not the arithmetic, is most of it)."""
    sizes = [int(np.prod(shape)) for shape in shapes]
    flat, m, v = np.zeros(sum(sizes)), np.zeros(sum(sizes)), np.zeros(sum(sizes))
    params = [part.reshape(shape) for part, shape in zip(np.split(flat, np.cumsum(sizes)[:-1]), shapes, strict=True)]
    for step in range(1, STEPS + 1):
        g = np.concatenate([np.ravel(part) for part in gradient(params)])
        m *= 0.9
        m += 0.1 * g
        v *= 0.999
        v += 0.001 * g ** 2
        flat -= RATE * (m / (1 - 0.9 ** step)) / (np.sqrt(v / (1 - 0.999 ** step)) + 1e-8)
    return [part.copy() for part in params]


def fit_head(offsets: NDArray[Any], features: NDArray[Any], targets: NDArray[Any],
             die_mask: NDArray[Any] | float = 1.0, value_mask: NDArray[Any] | float = 1.0) -> Head:
    """The heads of :class:`Head` from N candidates (N×C offsets, N×F features, N classes, 0 for
    floor): each a mean cross-entropy + :data:`RIDGE` × ‖weights and bias‖², the value head
    over the dice only, each taught value weighted alike (no value favoured for being thrown
    more often)."""
    n, c = offsets.shape
    mean = features.mean(axis=0)
    scale = features.std(axis=0) + 1e-3
    x = (features - mean) / scale
    f = x.shape[1]
    weighed = np.flatnonzero(np.broadcast_to(die_mask, (f,)))  # the die head's columns (the others weigh 0)
    x_die, x_value = x[:, weighed] * np.broadcast_to(die_mask, (f,))[weighed], x * value_mask
    is_die = (targets > 0).astype(float)
    base = _logsumexp(offsets[:, 1:]) - offsets[:, 0]

    def die_gradient(params: list[NDArray[Any]]) -> list[NDArray[Any]]:
        w, b = params
        p = 1 / (1 + np.exp(-(base + x_die @ w + b[0])))
        g = (p - is_die) / n
        return [x_die.T @ g + 2 * RIDGE * w, np.array([g.sum() + 2 * RIDGE * b[0]])]

    weights, die_b = _adam(die_gradient, [(len(weighed),), (1,)])
    die_w = np.zeros(f)
    die_w[weighed] = weights
    dice = targets > 0
    taught = np.unique(targets[dice])
    value_w, value_b = np.zeros((f, c - 1)), np.zeros(c - 1)
    if len(taught) >= 2:  # one value alone teaches nothing about telling values apart
        xs, offs, ts = x_value[dice], offsets[dice][:, 1:][:, taught - 1], np.searchsorted(taught, targets[dice])
        counts = np.bincount(ts, minlength=len(taught)).astype(float)
        weight = (1.0 / counts[ts]) / len(taught)
        onehot = np.eye(len(taught))[ts]

        def value_gradient(params: list[NDArray[Any]]) -> list[NDArray[Any]]:
            w, b, t = params  # t: how much less the network's own view counts (0: as much)
            g = (_softmax((1 - t[0]) * offs + xs @ w + b) - onehot) * weight[:, None]
            return [xs.T @ g + 2 * RIDGE * w, g.sum(axis=0) + 2 * RIDGE * b,
                    np.array([-(g * offs).sum() + 2 * RIDGE * t[0]])]

        w, b, t = _adam(value_gradient, [(f, len(taught)), (len(taught),), (1,)])
        value_w[:, taught - 1], value_b[taught - 1] = w, b
        trust = 1 - float(t[0])
    else:
        taught, trust = np.zeros(0, int), 1.0
    return Head(mean, scale, die_w, die_b, value_w, value_b, taught, np.array([trust]))
