"""Channels' private name that the site uses, here alone: the in-memory layer's sweep for
expired messages (`_clean_expired`), which Channels runs over every channel and group on each
`receive` and `group_send`, runs only when the layer's `sweep_due()` says so.

Channels is pinned (requirements.txt); tests/site/test_private_names.py fails when an upgrade
changes the sweep or stops calling it.
"""

from __future__ import annotations

from channels.layers import InMemoryChannelLayer


class InMemoryLayerWithSweepHook(InMemoryChannelLayer):
    def sweep_due(self) -> bool:
        """Whether to sweep now (a subclass's choice; Channels sweeps every time)."""
        return True

    def _clean_expired(self) -> None:
        if self.sweep_due():
            super()._clean_expired()

    def sweep_expired(self) -> None:
        """Sweep now, if `sweep_due()`."""
        self._clean_expired()
