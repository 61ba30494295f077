"""`Event.to_json` (every logged event is worded through it, once per step) gives what
`dataclasses.asdict` gave, with its own containers: wording an event cannot change it."""

from __future__ import annotations

from dataclasses import asdict

from games.core import Event


def test_an_events_json_is_asdicts_with_its_own_containers() -> None:
    event = Event("roll", {"seat": 1, "faces": [1, 2, (3, 4)], "names": {"a": {"b": [1.5, None, True]}}}, (0, 1))
    expected = asdict(event)
    expected["to"] = [0, 1]
    out = event.to_json()
    assert out == expected and out["to"] == [0, 1]
    out["data"]["faces"].append(9)
    out["data"]["names"]["a"]["b"].clear()
    assert event.data == {"seat": 1, "faces": [1, 2, (3, 4)], "names": {"a": {"b": [1.5, None, True]}}}
    assert Event("start").to_json() == {"type": "start", "data": {}, "to": None}
