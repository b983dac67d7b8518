"""The controller's event hub: bounded queues per subscriber, and the end of every stream
when the server stops."""

from __future__ import annotations

from device.events import EventHub


def test_a_slow_subscriber_loses_its_oldest_events_only():
    hub = EventHub(queue_size=2)
    subscription = hub.subscribe()
    for seq in (1, 2, 3):
        hub.publish("roll", {}, seq)
    assert [subscription.get(0).seq, subscription.get(0).seq] == [2, 3]
    assert subscription.dropped == 1 and subscription.get(0) is None


def test_closing_the_hub_ends_every_subscription_now_and_later():
    hub = EventHub()
    waiting = hub.subscribe()
    hub.publish("state", {"state": "idle"})
    idle = hub.subscribe()
    hub.close()
    assert waiting.get(0).kind == "state"  # what was published before still arrives
    assert waiting.get(60) is None and waiting.ended  # at once, not after 60 s
    assert idle.get(60) is None and idle.ended
    late = hub.subscribe()
    assert late.ended and late.get(60) is None
    hub.publish("state", {})
    assert hub.count() == 0
    hub.close()  # idempotent
