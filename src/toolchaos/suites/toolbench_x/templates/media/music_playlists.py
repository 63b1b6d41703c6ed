"""Music and playlists: albums, tracks, playlist durations and building playlists."""

from __future__ import annotations

from toolchaos.core.types import AnswerSpec, RefStep
from toolchaos.suites.toolbench_x.generate import (
    Draft,
    NoFit,
    Subtopic,
    TemplateContext,
    listing,
    ref,
)
from toolchaos.suites.toolbench_x.templates.media._helpers import (
    best_rated,
    listed,
    rating_ask,
    unique_top,
)


def _album_tracks(ctx: TemplateContext, album_id: str) -> list[dict[str, object]]:
    return list(ctx.read("get_album", album=album_id)["results"])


def album_playlist_longest_track(ctx: TemplateContext) -> Draft:
    """Sequential, writes twice: album -> playlist named after it -> add its longest track."""
    album = ctx.pick("albums")
    taken = {p.name.casefold() for p in ctx.rows("playlists")}
    if album.title.casefold() in taken:
        raise NoFit("a playlist already has that name")
    tracks = _album_tracks(ctx, album.album_id)
    which = ctx.rng.choice(["longest", "shortest", "opening", "closing"])
    durations = [int(str(t["duration_sec"])) for t in tracks]
    index = {
        "longest": durations.index(max(durations)),
        "shortest": durations.index(min(durations)),
        "opening": 0,
        "closing": len(tracks) - 1,
    }[which]
    if which in ("longest", "shortest"):
        unique_top(durations, "max" if which == "longest" else "min")
    artist = ctx.world.table("artists")[album.artist_id].name
    prompt = ctx.say(
        "Make me a new playlist named exactly like {artist}'s album '{album}', and start "
        "it with the {which} track from that album.",
        "Create a playlist called '{album}' (same as the record by {artist}) and put the "
        "album's {which} track on it.",
        artist=artist,
        album=album.title,
        which=which,
    )
    steps = [
        RefStep(tool="get_album", args={"album": album.title}),
        RefStep(tool="create_playlist", args={"name": ref(0, "title")}),
        RefStep(
            tool="add_track_to_playlist",
            args={
                "playlist_id": ref(1, "playlist_id"),
                "track_id": ref(0, "results", index, "track_id"),
            },
        ),
    ]
    return Draft(prompt, steps, AnswerSpec(op="none"), writes=True)


def playlist_opener_album_rating(ctx: TemplateContext) -> Draft:
    """Sequential: find a playlist -> its tracks -> rating of the album of one track."""
    playlist = ctx.pick("playlists")
    position = ctx.rng.choice([0, 1, 2])
    ask = rating_ask(ctx, "value")
    prompt = ask.say(
        ctx,
        "The {pos} song on my '{name}' playlist: what's the {source} {words} of the album "
        "it comes from?",
        "Check the album behind track number {n} of my '{name}' playlist and tell me its "
        "{source} {words}.",
        pos=("first", "second", "third")[position],
        n=position + 1,
        name=playlist.name,
        **ask.phrases(),
    )
    steps = [
        RefStep(tool="list_playlists", args={"name_contains": playlist.name}),
        RefStep(tool="get_playlist", args={"playlist_id": ref(0, "results", 0, "playlist_id")}),
    ]
    return ask.draft(prompt, steps, [ref(1, "results", position, "album_id")])


def three_albums_length(ctx: TemplateContext) -> Draft:
    """Parallel: three to seven albums; total, longest or shortest running time in seconds."""
    albums = ctx.sample("albums", ctx.count(3, 7))
    op = ctx.rng.choice(["sum", "max", "min"])
    if op != "sum":
        unique_top(
            [ctx.read("get_album", album=a.album_id)["total_duration_sec"] for a in albums], op
        )
    question = {
        "sum": "How long is that listening session in total, in seconds?",
        "max": "How many seconds long is the longest of them?",
        "min": "How many seconds long is the shortest of them?",
    }[op]
    prompt = ctx.say(
        "I'm queueing {n} albums back to back: {titles}. " + question,
        "Albums {titles} for the drive. " + question,
        n=len(albums),
        titles=listing([a.title for a in albums], "'"),
    )
    steps = [RefStep(tool="get_album", args={"album": a.title}) for a in albums]
    refs = [[i, "total_duration_sec"] for i in range(len(albums))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


best_album_of = best_rated(
    "best_album_of",
    "albums",
    "album_id",
    (
        "Of the albums {titles}, which gets the {word} {source} {words}? Give the figure.",
        "Compare {titles} on {source}. What's the {word} {words}?",
    ),
    quote="'",
)


def playlist_albums_rating(ctx: TemplateContext) -> Draft:
    """Mixture: a playlist's tracks -> rating of the album of each of the first tracks."""
    playlist = ctx.pick("playlists")
    count = ctx.rng.choice([3, 4])
    ask = rating_ask(ctx)
    prompt = ask.say(
        ctx,
        "For the first {n} songs on my playlist {pid}, look up each song's album on "
        "{source}. What's the {word} {words} among those albums?",
        "Playlist {pid}: take its opening {n} tracks, check their albums' {source} "
        "{words}, and give me the {word} one.",
        n=count,
        pid=playlist.playlist_id,
        **ask.phrases(),
    )
    listing = RefStep(tool="get_playlist", args={"playlist_id": playlist.playlist_id})
    return ask.draft(prompt, [listing], listed(count, "album_id"))


def artist_albums_length(ctx: TemplateContext) -> Draft:
    """Mixture: an artist's tracks -> each album -> total running time."""
    artist = ctx.pick("artists")
    found = ctx.read("search_tracks", artist=artist.name)["results"]
    albums: list[str] = []
    for track in found:
        if track["artist"] == artist.name and track["album_id"] not in albums:
            albums.append(str(track["album_id"]))
    if len(albums) < 2 or any(r["artist"] != artist.name for r in found):
        raise NoFit("need two albums by one artist")
    firsts = [next(i for i, t in enumerate(found) if t["album_id"] == a) for a in albums]
    op = ctx.rng.choice(["sum", "max"])
    question = {
        "sum": "how many seconds would it take to play all of them",
        "max": "how many seconds long is the longest album",
    }[op]
    prompt = ctx.say(
        "Search the tracks by {artist} and go through each album they appear on: " + question + "?",
        "I'm doing a marathon of {artist}: every album in the track search. "
        + question[0].upper()
        + question[1:]
        + "?",
        artist=artist.name,
    )
    steps = [RefStep(tool="search_tracks", args={"artist": artist.name})]
    steps += [
        RefStep(tool="get_album", args={"album": ref(0, "results", i, "album_id")}) for i in firsts
    ]
    refs = [[1 + i, "total_duration_sec"] for i in range(len(albums))]
    return Draft(prompt, steps, AnswerSpec(op=op, refs=refs))


SUBTOPIC = Subtopic(
    name="music and playlists",
    templates={
        "sequential": [album_playlist_longest_track, playlist_opener_album_rating],
        "parallel": [three_albums_length, best_album_of],
        "mixture": [playlist_albums_rating, artist_albums_length],
    },
)
