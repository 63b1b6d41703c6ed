"""Media subtopics (topic "entertainment and media"), one module each."""

SUBTOPIC_ORDER = (
    "movie_showtimes",
    "streaming_watchlists",
    "music_playlists",
    "library_loans",
    "podcasts",
    "concerts_events",
    "video_games",
    "tv_schedules",
    "reviews_ratings",
)
