"""Training that survives a stop: a training loop's whole state saved after every epoch, and taken up again.

A training-time module (PyTorch; never imported by dicelens at run time). A run stopped at any
moment (a session's end, a power cut) and started again with the same options goes on from its
last finished epoch and ends with the very network an unbroken run makes: the weights, the
optimiser, the learning-rate schedule, numpy's and torch's random streams and the loop's own
state (a shuffled order) are all restored.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch


class Resume:
    """One network's training state in ``path`` (written whole after every epoch, never half), for a
    run of ``recipe`` (the options that decide what is learned: a saved state of other options is
    refused, never mixed in)."""

    def __init__(self, path: Path, recipe: dict[str, Any]) -> None:
        self.path = path
        self.recipe = {key: str(value) if isinstance(value, Path) else value for key, value in recipe.items()}

    def start(self, net: torch.nn.Module, opt: torch.optim.Optimizer, sched: Any,
              rng: np.random.Generator) -> tuple[int, dict[str, Any]]:
        """Restore the saved state into ``net``, ``opt``, ``sched`` and ``rng``, if there is one.

        :returns: the first epoch still to train (0 with nothing saved) and the loop's saved ``extra``.
        :raises SystemExit: the saved state is of a run with other options (it names the file to remove).
        """
        if not self.path.exists():
            return 0, {}
        state = torch.load(self.path, weights_only=False)
        if state["recipe"] != self.recipe:
            raise SystemExit(f"{self.path}: a stopped run with other options; remove it to start over")
        net.load_state_dict(state["net"])
        opt.load_state_dict(state["opt"])
        sched.load_state_dict(state["sched"])
        rng.bit_generator.state = state["rng"]
        torch.set_rng_state(state["torch_rng"])
        print(f"resumed {self.path} after epoch {state['epoch']}", flush=True)
        return state["epoch"], state["extra"]

    def save(self, epochs_done: int, net: torch.nn.Module, opt: torch.optim.Optimizer, sched: Any,
             rng: np.random.Generator, extra: dict[str, Any] | None = None) -> None:
        """Save the state after ``epochs_done`` epochs (to a file beside it, then renamed over it)."""
        part = self.path.with_name(self.path.name + ".part")
        torch.save({"recipe": self.recipe, "epoch": epochs_done, "net": net.state_dict(), "opt": opt.state_dict(),
                    "sched": sched.state_dict(), "rng": rng.bit_generator.state, "torch_rng": torch.get_rng_state(),
                    "extra": extra or {}}, part)
        part.replace(self.path)

    def remove(self) -> None:
        """Forget the state (the run ended and its network is written)."""
        self.path.unlink(missing_ok=True)
