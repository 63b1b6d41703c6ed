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
