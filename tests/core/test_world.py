from conftest import WeatherWorld
from toolchaos.core.world import World


def test_same_seed_same_state_and_different_seed_differs() -> None:
    assert WeatherWorld.build(3).state_hash() == WeatherWorld.build(3).state_hash()
    assert WeatherWorld.build(3).state_hash() != WeatherWorld.build(4).state_hash()


def test_fork_is_copy_on_write(fixture_world: WeatherWorld) -> None:
    base_hash = fixture_world.state_hash()
    fork = fixture_world.fork()
    assert fork.state_hash() == base_hash
    assert fork.cities is fixture_world.cities  # shared until written
    fork.update("cities", "C-101", temp_c=99.0)
    assert fork.cities["C-101"].temp_c == 99.0
    assert fixture_world.cities["C-101"].temp_c != 99.0
    assert fork.state_hash() != base_hash
    assert fixture_world.state_hash() == base_hash
    assert fork.written_tables() == {"cities"}


def test_ids_and_clock_are_the_worlds_own(fixture_world: WeatherWorld) -> None:
    a, b = fixture_world.fork(), fixture_world.fork()
    assert a.next_id("AL") == "AL-00001"
    assert a.next_id("AL") == "AL-00002"
    assert b.next_id("AL") == "AL-00001"
    assert fixture_world.id_counters == {}
    start = a.now()
    a.advance(90)
    assert (a.now() - start).total_seconds() == 90 * 60
    assert a.now().tzinfo is not None
    assert fixture_world.now() == World.EPOCH


def test_patch_updates_and_inserts(fixture_world: WeatherWorld) -> None:
    fork = fixture_world.fork()
    fork.apply_patch(
        {
            "cities": {
                "C-101": {"temp_c": 1.5},
                "rome": {"city_id": "C-200", "name": "Rome", "temp_c": 20.0, "humidity": 40},
            }
        }
    )
    assert fork.cities["C-101"].temp_c == 1.5
    assert fork.cities["rome"].name == "Rome"
    assert "rome" not in fixture_world.cities


def _alert(world: WeatherWorld, city: str) -> None:
    from conftest import Alert

    alert_id = world.next_id("AL")
    world.insert("alerts", alert_id, Alert(alert_id=alert_id, city_id=city, threshold_c=20.0))


def test_same_records_in_another_order_reach_the_same_state(fixture_world: WeatherWorld) -> None:
    a, b = fixture_world.fork(), fixture_world.fork()
    _alert(a, "C-101")
    _alert(a, "C-102")
    _alert(b, "C-102")
    _alert(b, "C-101")
    assert a.alerts != b.alerts  # numbered differently...
    assert a.state_hash() == b.state_hash()  # ...but the same state
    c = fixture_world.fork()
    _alert(c, "C-101")
    assert c.state_hash() != a.state_hash()


def test_writes_then_undo_restore_the_hash(fixture_world: WeatherWorld) -> None:
    fork = fixture_world.fork()
    before = fork.state_hash()
    old = fork.cities["C-103"].temp_c
    fork.update("cities", "C-103", temp_c=old + 1)
    assert fork.state_hash() != before
    fork.update("cities", "C-103", temp_c=old)
    assert fork.state_hash() == before


def test_a_fork_of_a_fork_hashes_like_the_same_writes(fixture_world: WeatherWorld) -> None:
    direct = fixture_world.fork()
    direct.update("cities", "C-101", temp_c=1.0)
    direct.update("cities", "C-102", temp_c=2.0)
    parent = fixture_world.fork()
    parent.update("cities", "C-101", temp_c=1.0)
    child = parent.fork()
    child.update("cities", "C-102", temp_c=2.0)
    assert child.state_hash() == direct.state_hash()
    assert parent.cities["C-102"].temp_c != 2.0


def test_clean_forks_share_one_hash_and_writes_never_see_it(fixture_world: WeatherWorld) -> None:
    base = fixture_world.state_hash()
    clean = fixture_world.fork()
    assert clean.state_hash() == base  # computed once, then reused by clean forks
    clean.update("cities", "C-101", temp_c=42.0)
    written = clean.state_hash()
    assert written != base
    assert fixture_world.fork().state_hash() == base
    child = clean.fork()  # a clean fork of a written fork hashes like its parent
    assert child.state_hash() == written
    minted = fixture_world.fork()
    minted.next_id("AL")  # new id counters: another state, even with no table written
    assert minted.state_hash() != base
