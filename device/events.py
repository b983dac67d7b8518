"""Events the controller publishes, fanned out to subscribers with bounded queues.

Each subscriber (an open page's event stream) gets its own queue. A subscriber
that does not keep up loses its oldest events, never blocks the publisher: a
roll it missed comes back with ``rolls_since(seq)``, and the next state event
carries the whole state.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass


@dataclass(frozen=True)
class Event:
    """One change: ``kind`` ``"roll"`` | ``"state"`` | ``"camera"``, the roll's ``seq`` for a
    roll event (else ``None``), and ``data`` (a roll dict, the state, the camera status)."""

    kind: str
    seq: int | None
    data: dict


class Subscription:
    """One subscriber's queue of events. Use :meth:`get` in a loop until :attr:`ended`,
    :meth:`close` when done."""

    def __init__(self, hub: EventHub, size: int):
        self._hub = hub
        self._queue: queue.Queue[Event | None] = queue.Queue(size)
        self.dropped = 0
        self.ended = False  # the hub was closed: no event will ever come

    def get(self, timeout: float) -> Event | None:
        """The next event, or ``None`` after ``timeout`` seconds without one, or at once
        once the hub is closed."""
        if self.ended:
            return None
        try:
            event = self._queue.get(timeout=timeout)
        except queue.Empty:
            return None
        if event is None:  # the hub's end mark
            self.ended = True
        return event

    def close(self) -> None:
        """Stop receiving events; idempotent."""
        self._hub._remove(self)

    def _put(self, event: Event | None) -> None:
        while True:
            try:
                self._queue.put_nowait(event)
                return
            except queue.Full:
                try:
                    self._queue.get_nowait()  # the oldest goes: the newest state matters most
                    self.dropped += 1
                except queue.Empty:
                    pass


class EventHub:
    """Publishes events to every open :class:`Subscription`; thread-safe.

    :param queue_size: events kept per subscriber before its oldest are dropped.
    """

    def __init__(self, queue_size: int = 100):
        self.queue_size = queue_size
        self._lock = threading.Lock()
        self._subscriptions: list[Subscription] = []
        self._closed = False

    def subscribe(self) -> Subscription:
        subscription = Subscription(self, self.queue_size)
        with self._lock:
            if self._closed:
                subscription.ended = True
            else:
                self._subscriptions.append(subscription)
        return subscription

    def close(self) -> None:
        """End every subscription, and any made later (the server is stopping): a waiting
        :meth:`Subscription.get` returns at once. Idempotent."""
        with self._lock:
            self._closed = True
            for subscription in self._subscriptions:
                subscription._put(None)
            self._subscriptions.clear()

    def publish(self, kind: str, data: dict, seq: int | None = None) -> None:
        event = Event(kind, seq, data)
        with self._lock:
            for subscription in self._subscriptions:
                subscription._put(event)

    def count(self) -> int:
        """Open subscriptions."""
        with self._lock:
            return len(self._subscriptions)

    def _remove(self, subscription: Subscription) -> None:
        with self._lock:
            if subscription in self._subscriptions:
                self._subscriptions.remove(subscription)
