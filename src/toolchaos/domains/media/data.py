"""Static tables the media world draws from: titles, people, venues, services, prices.

Only data lives here; every choice among these entries (and every generated figure) is
made by the world's seeded generator in :mod:`toolchaos.domains.media.world`. Every title
is invented, and no title is repeated across kinds, so a name finds one catalogue item.
"""

from __future__ import annotations

FILM_TITLES: tuple[str, ...] = (
    "The Last Lighthouse", "Copper Sky", "Midnight at Vantage Point", "Paper Kingdoms",
    "The Glass Orchard", "Northbound Freight", "A Quiet Detonation", "Saltwater Saints",
    "The Cartographer's Daughter", "Iron Lullaby", "Neon Harvest", "The Fifth Tenant",
    "Static Bloom", "Run the Gauntlet", "Wolves of Calder Ridge", "The Understudy",
    "Gravity Wells", "Small Hours", "The Borrowed Summer", "Flint and Feather",
    "Echo Canyon Heist", "Paper Moon Motel", "The Velvet Archive", "Harbor of Ghosts",
    "Thin Ice Protocol", "Marigold Lane", "The Long Exposure", "Orbit of Strangers",
    "Kestrel Falls", "The Seventh Lantern",
)  # fmt: skip

FILM_GENRES: tuple[str, ...] = (
    "drama", "thriller", "comedy", "sci-fi", "animation", "horror", "action", "romance",
)  # fmt: skip
FILM_CERTIFICATES: tuple[str, ...] = ("G", "PG", "PG-13", "R")

DIRECTORS: tuple[str, ...] = (
    "Ines Calloway", "Tomas Reyes-Ward", "Mira Okonjo", "Dale Penhallow", "Yuki Ansell",
    "Priya Halvorsen", "Marcus Oduya", "Lena Varga", "Owen Strickland", "Sofia Marchetti",
)  # fmt: skip

# (name, city, per-ticket booking fee in USD)
CINEMAS: tuple[tuple[str, str, float], ...] = (
    ("Rialto Picturehouse", "Portland", 1.25),
    ("Northgate Cineplex", "Portland", 1.75),
    ("Bijou Art House", "Seattle", 0.95),
    ("Harbor Lights IMAX", "Seattle", 2.25),
    ("Starlight 12", "Denver", 1.50),
    ("Paramount Screens Uptown", "Denver", 1.95),
)

SHOW_FORMATS: tuple[str, ...] = ("standard", "3d", "imax")
# Added to a cinema's standard price for each format, USD.
FORMAT_SURCHARGE_USD: dict[str, float] = {"standard": 0.0, "3d": 3.5, "imax": 6.0}
SHOW_STARTS: tuple[str, ...] = (
    "11:15", "12:40", "13:30", "14:50", "16:10", "17:20", "18:45", "19:30", "20:15",
    "21:40", "22:30",
)  # fmt: skip
TRAILER_MINUTES = 20

STREAMING_SERVICES: tuple[tuple[str, float], ...] = (
    ("StreamBox", 11.99),
    ("Vistara+", 8.99),
    ("Nimbus TV", 14.49),
    ("Peakflix", 9.49),
)

SERIES_TITLES: tuple[str, ...] = (
    "Harrowgate", "The Mercer Files", "Low Tide County", "Signal Lost", "Crown of Ash",
    "The Night Desk", "Parallel Lines", "Dead Reckoning", "Bramble House",
    "Station Eleven North", "The Quiet Partner", "Fault Lines", "Ember Street",
    "The Archivists", "Blue Hour", "Kingfisher Bay", "Overclocked", "The Long Table",
    "Meridian", "Second Sunrise",
)  # fmt: skip
SERIES_GENRES: tuple[str, ...] = (
    "crime", "drama", "sci-fi", "comedy", "fantasy", "documentary", "mystery",
)  # fmt: skip
EPISODE_WORDS: tuple[str, ...] = (
    "Arrival", "The Offer", "Undertow", "Loose Ends", "Quarantine", "The Ledger",
    "Blackout", "Homecoming", "Crossfire", "The Witness", "Breakwater", "Old Debts",
    "Fever Pitch", "The Long Night", "Ghost Signal", "Checkmate", "Salt", "Threshold",
    "Firebreak", "Reckoning", "Afterglow", "Northern Lights", "Dominoes", "Cold Open",
)  # fmt: skip

ARTISTS: tuple[tuple[str, str], ...] = (
    ("Luna Varela", "pop"), ("The Tin Harbors", "indie rock"), ("Marcus Bell Trio", "jazz"),
    ("Sable & Sons", "folk"), ("Kairo", "electronic"), ("Velvet Static", "shoegaze"),
    ("June Okafor", "r&b"), ("The Hollow Pines", "americana"), ("Nadia Strauss", "classical"),
    ("Brass Parade", "funk"), ("Odessa Grey", "soul"), ("Pale Mountains", "post-rock"),
    ("Rico Santana", "latin"), ("The Paper Kites Club", "indie pop"),
    ("Ivy Lark", "singer-songwriter"),
)  # fmt: skip
ALBUM_TITLES: tuple[str, ...] = (
    "Slow Burn Summer", "Gold Coast Radio", "Afterhours", "Wildflower Theory",
    "Concrete Lullabies", "Westward", "Blue Vinyl", "Satellite Hearts", "Tender Machines",
    "Low Light", "Open Water", "Cathedral Noise", "Second Nature", "Honey & Ash",
    "Night Market", "Paper Planes and Porch Lights", "Overgrown", "Signal Fires",
    "Quiet Storms", "Ferris Wheel", "Static Dreams", "The Long Road Home", "Marrow",
    "Gleaming", "Tidal", "Sugar Rush Parade", "Velvet Hours", "Ghost Town Radio",
    "Northern Soul", "Canary Yellow", "Brightside", "Hinterland", "Runaway Colors",
    "Moth to Flame", "Kaleidoscope Avenue", "Paper Lanterns", "Undercurrent",
    "Midnight Garden", "Porcelain", "Harvest Moon Sessions",
)  # fmt: skip
TRACK_WORDS: tuple[str, ...] = (
    "Fever", "Golden", "Highway", "Paper", "Ocean", "Lantern", "Winter", "Neon", "Honey",
    "Rivers", "Static", "Echoes", "Wildfire", "Silver", "Gravity", "Strangers", "Sunday",
    "Shadows", "Motel", "Horizon", "Velvet", "Thunder", "Marbles", "Satellites",
)  # fmt: skip
TRACK_PATTERNS: tuple[str, ...] = (
    "{a} {b}", "{a} in the {b}", "All the {a}", "{a} & {b}", "Chasing {a}", "No More {a}",
    "{a} Again", "Little {a}",
)  # fmt: skip
PLAYLIST_NAMES: tuple[str, ...] = (
    "Morning Run", "Sunday Chores", "Deep Focus", "Road Trip 2026", "Dinner Party",
    "Late Night Drive", "Rainy Day", "Gym Rotation",
)  # fmt: skip

BOOK_TITLES: tuple[tuple[str, str, str], ...] = (
    ("The Salt Road", "Amara Quist", "historical fiction"),
    ("A Map of Small Fires", "Jonah Reyes", "literary fiction"),
    ("The Weight of Rivers", "Helen Achebe-Moss", "literary fiction"),
    ("Clockwork Tide", "Ravi Menon", "fantasy"),
    ("Murder at Fennimore Hall", "Clara Benedict", "mystery"),
    ("The Quiet Mathematician", "Paul Ingersoll", "biography"),
    ("Orchard of Bones", "Clara Benedict", "mystery"),
    ("Starlight Engineers", "Ravi Menon", "science fiction"),
    ("How Cities Breathe", "Dana Whitlock", "nonfiction"),
    ("The Ninth Winter", "Amara Quist", "historical fiction"),
    ("Feral Gardens", "Tess Morland", "nonfiction"),
    ("The Copper Crown", "Lucas Ferrante", "fantasy"),
    ("Letters from Kestrel Island", "Maeve O'Riordan", "romance"),
    ("Dark Matter Diaries", "Samir Haddad", "science fiction"),
    ("The Long Con", "Victor Hale", "thriller"),
    ("Tidewater", "Maeve O'Riordan", "romance"),
    ("A Field Guide to Silence", "Ines Parra", "essays"),
    ("The Glass Cartographer", "Lucas Ferrante", "fantasy"),
    ("Cold Harbor", "Victor Hale", "thriller"),
    ("Bread and Salt", "Noor Saleh", "cookery"),
    ("The Invisible Grid", "Dana Whitlock", "nonfiction"),
    ("Seven Bridges", "Jonah Reyes", "literary fiction"),
    ("Nightingale Protocol", "Samir Haddad", "thriller"),
    ("The Beekeeper's Almanac", "Tess Morland", "nonfiction"),
    ("Hollow Star", "Ravi Menon", "science fiction"),
    ("The Winter Orchard", "Helen Achebe-Moss", "literary fiction"),
    ("Lanterns on the Water", "Kenji Arai", "literary fiction"),
    ("The Patient Assassin", "Victor Hale", "thriller"),
    ("Rooftop Kitchens", "Noor Saleh", "cookery"),
    ("The Last Ferry to Wren", "Clara Benedict", "mystery"),
    ("Quantum Tea", "Paul Ingersoll", "popular science"),
    ("Daughters of the Tide", "Amara Quist", "historical fiction"),
    ("An Atlas of Lost Sounds", "Ines Parra", "essays"),
    ("Ember and Ink", "Lucas Ferrante", "fantasy"),
    ("The Silent Witness", "Kenji Arai", "mystery"),
    ("Blueprints for Tomorrow", "Dana Whitlock", "nonfiction"),
)
LIBRARY_BRANCHES: tuple[str, ...] = ("Central", "Eastside", "Maple Grove", "Riverside")
LATE_FEE_PER_DAY_USD = 0.25
LATE_FEE_CAP_USD = 8.0
LOAN_DAYS = 21
RENEWAL_DAYS = 14
MAX_RENEWALS = 2

PODCASTS: tuple[tuple[str, str, str], ...] = (
    ("Deep Dive Daily", "Rosa Lindqvist", "news"),
    ("The Curious Kitchen", "Omar Tellez", "food"),
    ("Signal & Noise", "Beth Adeyemi", "technology"),
    ("Unsolved Northwest", "Gary Pell", "true crime"),
    ("Field Notes", "Hana Mori", "science"),
    ("The Long Game", "Dev Raman", "sports"),
    ("Money Talks Quietly", "Claire Dubois", "business"),
    ("Backstage Pass", "Leo Marsh", "music"),
    ("History Unboxed", "Fiona Kett", "history"),
    ("Mindful Minutes", "Asha Patel", "health"),
    ("Screen Time", "Nico Alvarez", "film & tv"),
    ("The Build", "Sam Okoro", "design"),
)
PODCAST_TOPICS: tuple[str, ...] = (
    "The hidden cost of convenience", "An interview with a lighthouse keeper",
    "What the data really says", "Listener questions", "The comeback season",
    "Behind the recipe", "A decade in review", "The night shift", "Small habits, big change",
    "The open case files", "Inside the studio", "Maps that lied", "How to start over",
    "The great debate", "Tools of the trade", "Live from the road", "The origin story",
    "Myths and misconceptions", "Fast and slow", "The final chapter",
)  # fmt: skip

VENUES: tuple[tuple[str, str, int], ...] = (
    ("The Crystal Ballroom", "Portland", 1500),
    ("Moda Arena Hall", "Portland", 9000),
    ("The Neptune", "Seattle", 1000),
    ("Emerald Pavilion", "Seattle", 6500),
    ("Red Mesa Amphitheatre", "Denver", 9500),
    ("The Bluebird Room", "Denver", 550),
    ("Lakeside Bowl", "Chicago", 1800),
    ("Grand Union Theater", "Chicago", 3600),
)
# Ticket tiers and their price multiplier over a show's base price.
TICKET_TIERS: tuple[tuple[str, float], ...] = (
    ("general", 1.0),
    ("balcony", 1.35),
    ("floor", 1.8),
    ("vip", 3.2),
)
BOX_OFFICE = "venue box office"
RESELLERS: tuple[str, ...] = ("TicketNest", "SeatSwap")

GAMES: tuple[tuple[str, str, str], ...] = (
    ("Starfall Odyssey", "Lumen Forge", "rpg"),
    ("Turbo Terrace", "Pitlane Games", "racing"),
    ("Hollowmere", "Grey Heron Studio", "adventure"),
    ("Crate Expectations", "Tiny Anvil", "puzzle"),
    ("Iron Vanguard", "Northwall Interactive", "shooter"),
    ("Garden Guardians", "Tiny Anvil", "strategy"),
    ("Neon Drift 2", "Pitlane Games", "racing"),
    ("The Sunken Bell", "Grey Heron Studio", "adventure"),
    ("Kingdom Ledger", "Cobalt Crown", "strategy"),
    ("Pixel Pastry Shop", "Sugarbyte", "simulation"),
    ("Voidrunner", "Northwall Interactive", "shooter"),
    ("Tales of Emberfall", "Lumen Forge", "rpg"),
    ("Puzzle Lighthouse", "Sugarbyte", "puzzle"),
    ("Fjord Fishing Club", "Cobalt Crown", "simulation"),
    ("Shadow Circuit", "Northwall Interactive", "action"),
    ("Moonlit Menagerie", "Grey Heron Studio", "adventure"),
    ("Rally Legends", "Pitlane Games", "racing"),
    ("Clockwork Tactics", "Cobalt Crown", "strategy"),
    ("Skyhook Salvage", "Tiny Anvil", "action"),
    ("Aether Knights", "Lumen Forge", "rpg"),
    ("Cozy Caverns", "Sugarbyte", "simulation"),
    ("Frontier Bloom", "Grey Heron Studio", "strategy"),
)
PLATFORMS: tuple[str, ...] = ("pc", "playstation", "xbox", "switch")
GAME_PRICES_USD: tuple[float, ...] = (9.99, 14.99, 19.99, 24.99, 29.99, 39.99, 49.99, 59.99, 69.99)

CHANNELS: tuple[tuple[str, int], ...] = (
    ("Channel 4 Metro", 4), ("KBRT News", 7), ("Cinemax Classic", 12), ("Discovery Plus One", 21),
    ("Sportsline", 33), ("Kids Zone", 41), ("Arts & Culture", 52), ("Drama Central", 60),
)  # fmt: skip
PROGRAM_SLOTS: tuple[str, ...] = (
    "06:00", "07:30", "09:00", "10:30", "12:00", "13:30", "15:00", "16:30", "18:00",
    "19:30", "21:00", "22:30",
)  # fmt: skip
NEWS_SHOWS: tuple[str, ...] = ("Morning Briefing", "Midday Report", "Evening News", "Late Edition")
SPORTS_SHOWS: tuple[str, ...] = (
    "Courtside Live", "Match of the Week", "Goal Rush", "The Paddock", "Fight Night Recap",
)  # fmt: skip
KIDS_SHOWS: tuple[str, ...] = ("Puzzle Pals", "Robo Ranch", "The Busy Badgers", "Sketch Squad")
ARTS_SHOWS: tuple[str, ...] = (
    "Gallery Walk", "Opera Tonight", "The Makers", "Portrait of a City", "Design Matters",
)  # fmt: skip
DOC_SHOWS: tuple[str, ...] = (
    "Wild Coasts", "Engineering Giants", "Deep Ocean", "Lost Civilisations", "Planet Kitchens",
)  # fmt: skip

RATING_SOURCES: tuple[str, ...] = ("CriticHub", "FanPulse", "ReelMeter")
