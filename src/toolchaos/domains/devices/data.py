"""Static tables the devices world draws from: models, devices, rooms, services, cities.

Only data lives here; every choice among these entries (purchase dates, installed
firmware, usage, measured speeds, logins ...) is made by the world's seeded generator in
:mod:`toolchaos.domains.devices.world`.
"""

from __future__ import annotations

from typing import NamedTuple


class Model(NamedTuple):
    """A device model on sale: its maker, typical draw and price, warranty and firmware.

    ``power_w`` is the typical draw while on (for a smart plug: the appliance it feeds is
    set per device), ``hours_per_day`` the typical daily use, ``warranty_months`` the
    maker's limited warranty, ``releases`` its firmware versions, oldest first, and
    ``bridge_from`` the index of the first release a device must already run to jump
    straight to the newest ones (older devices need that release first).
    """

    key: str
    category: str
    brand: str
    name: str
    power_w: float
    hours_per_day: float
    price_usd: float
    warranty_months: int
    releases: tuple[str, ...]
    bridge_from: int


MODELS: tuple[Model, ...] = (
    Model("nest-t4", "thermostat", "Google", "Nest Learning Thermostat (4th gen)", 3, 24, 279,
          12, ("6.0.2", "6.1.0", "6.2.1", "6.3.0", "7.0.1", "7.1.0"), 3),
    Model("ecobee-p", "thermostat", "ecobee", "ecobee Smart Thermostat Premium", 4, 24, 249,
          36, ("4.8.1", "4.8.7", "4.9.2", "5.0.0", "5.0.4"), 2),
    Model("hue-a19", "light", "Philips", "Hue White and Color A19", 9, 5, 50, 24,
          ("1.104.2", "1.108.1", "1.116.3", "1.122.8"), 1),
    Model("hue-go", "light", "Philips", "Hue Go portable lamp", 6, 3, 90, 24,
          ("1.104.2", "1.108.1", "1.116.3", "1.122.8"), 1),
    Model("nanoleaf", "light", "Nanoleaf", "Shapes Hexagons", 20, 4, 200, 24,
          ("9.1.0", "9.2.3", "9.4.1", "10.0.2"), 2),
    Model("kasa-kp125m", "plug", "TP-Link", "Kasa Smart Plug KP125M", 0, 0, 25, 24,
          ("1.0.9", "1.1.3", "1.2.2", "1.3.0"), 1),
    Model("eve-energy", "plug", "Eve", "Eve Energy (Matter)", 0, 0, 40, 24,
          ("3.2.1", "3.3.0", "3.5.0"), 1),
    Model("ring-db4", "camera", "Ring", "Video Doorbell 4", 4, 24, 219, 12,
          ("2.14.4", "2.15.9", "3.0.2", "3.1.5"), 2),
    Model("arlo-pro5", "camera", "Arlo", "Pro 5S 2K Spotlight Camera", 3, 24, 249, 12,
          ("1.9.12", "1.10.4", "1.12.0", "1.13.2"), 1),
    Model("sonos-era100", "speaker", "Sonos", "Era 100", 6, 6, 249, 12,
          ("15.9", "16.1", "16.3", "17.2"), 2),
    Model("echo-dot5", "speaker", "Amazon", "Echo Dot (5th gen)", 3, 24, 50, 12,
          ("8.4.1", "8.6.0", "8.9.2", "9.0.1"), 1),
    Model("lg-c3", "tv", "LG", "C3 OLED 65-inch", 120, 4, 1800, 12,
          ("03.10.25", "03.20.41", "03.30.70", "04.10.05"), 2),
    Model("samsung-qn90c", "tv", "Samsung", "QN90C Neo QLED 55-inch", 110, 3, 1300, 12,
          ("1301.2", "1310.4", "1402.1", "1420.6"), 2),
    Model("iphone15", "phone", "Apple", "iPhone 15", 6, 3, 799, 12,
          ("17.5.1", "17.6.1", "18.1.1", "18.3.2"), 1),
    Model("pixel8", "phone", "Google", "Pixel 8", 6, 3, 699, 12,
          ("14.0.4", "14.1.2", "15.0.1", "15.1.0"), 1),
    Model("galaxy-s24", "phone", "Samsung", "Galaxy S24", 7, 3, 799, 12,
          ("14.1", "14.2", "15.0", "15.1"), 1),
    Model("macbook-air-m2", "laptop", "Apple", "MacBook Air 13-inch (M2)", 30, 6, 1099, 12,
          ("14.4.1", "14.6.1", "15.1.1", "15.3.2"), 1),
    Model("xps13", "laptop", "Dell", "XPS 13 9340", 35, 6, 1299, 12,
          ("1.4.0", "1.6.2", "1.9.0", "2.1.1"), 2),
    Model("x1-carbon", "laptop", "Lenovo", "ThinkPad X1 Carbon Gen 11", 40, 7, 1650, 36,
          ("1.21", "1.25", "1.31", "1.36"), 1),
    Model("ipad-air", "tablet", "Apple", "iPad Air 11-inch (M2)", 10, 2, 599, 12,
          ("17.5.1", "17.6.1", "18.1.1", "18.3.2"), 1),
    Model("eero-pro6e", "router", "eero", "eero Pro 6E", 15, 24, 299, 12,
          ("6.16.2", "7.1.1", "7.4.0", "7.6.2"), 2),
    Model("roomba-j7", "vacuum", "iRobot", "Roomba j7+", 35, 1, 599, 12,
          ("22.29.6", "22.52.10", "23.53.4", "24.29.1"), 2),
    Model("dyson-tp07", "purifier", "Dyson", "Purifier Cool TP07", 40, 8, 569, 24,
          ("0403", "0504", "0611", "0702"), 1),
    Model("synology-ds224", "nas", "Synology", "DiskStation DS224+", 20, 24, 300, 24,
          ("7.1.1", "7.2.0", "7.2.1", "7.2.2"), 1),
    Model("ps5", "console", "Sony", "PlayStation 5", 200, 2, 499, 12,
          ("23.02", "24.03", "24.06", "25.01"), 1),
    Model("august-lock", "lock", "August", "Wi-Fi Smart Lock (4th gen)", 1, 24, 229, 12,
          ("2.1.14", "2.2.6", "2.3.1", "3.0.0"), 2),
)  # fmt: skip


class DeviceSpec(NamedTuple):
    """One device a household may own: its name, model key, room and owner.

    ``load`` and ``load_w`` name the appliance a smart plug feeds and its draw.
    """

    name: str
    model: str
    room: str
    owner: str
    load: str = ""
    load_w: float = 0.0
    load_hours: float = 0.0


MEMBERS: tuple[str, ...] = ("Maya", "Daniel", "Priya", "Leo")
HOUSEHOLD = "shared"

DEVICES: tuple[DeviceSpec, ...] = (
    DeviceSpec("Living Room Thermostat", "nest-t4", "Living Room", HOUSEHOLD),
    DeviceSpec("Upstairs Thermostat", "ecobee-p", "Hallway", HOUSEHOLD),
    DeviceSpec("Sofa Lamp", "hue-a19", "Living Room", HOUSEHOLD),
    DeviceSpec("Dining Pendant", "hue-a19", "Kitchen", HOUSEHOLD),
    DeviceSpec("Porch Light", "hue-a19", "Porch", HOUSEHOLD),
    DeviceSpec("Bedside Lamp", "hue-go", "Primary Bedroom", "Maya"),
    DeviceSpec("Reading Nook Light", "hue-go", "Guest Room", HOUSEHOLD),
    DeviceSpec("Office Wall Panels", "nanoleaf", "Office", "Daniel"),
    DeviceSpec("Game Room Hexagons", "nanoleaf", "Basement", "Leo"),
    DeviceSpec("Space Heater Plug", "kasa-kp125m", "Office", "Daniel", "space heater", 1500, 3),
    DeviceSpec("Coffee Maker Plug", "kasa-kp125m", "Kitchen", HOUSEHOLD, "coffee maker", 1000, 0.5),
    DeviceSpec("Dehumidifier Plug", "eve-energy", "Basement", HOUSEHOLD, "dehumidifier", 300, 10),
    DeviceSpec("Aquarium Plug", "eve-energy", "Living Room", "Priya", "aquarium heater", 100, 12),
    DeviceSpec("Window AC Plug", "kasa-kp125m", "Guest Room", HOUSEHOLD, "window AC", 900, 2),
    DeviceSpec("Kettle Plug", "eve-energy", "Kitchen", HOUSEHOLD, "electric kettle", 1800, 0.3),
    DeviceSpec("Freezer Plug", "kasa-kp125m", "Garage", HOUSEHOLD, "chest freezer", 120, 9),
    DeviceSpec("Front Doorbell", "ring-db4", "Porch", HOUSEHOLD),
    DeviceSpec("Driveway Camera", "arlo-pro5", "Garage", HOUSEHOLD),
    DeviceSpec("Backyard Camera", "arlo-pro5", "Porch", HOUSEHOLD),
    DeviceSpec("Kitchen Speaker", "sonos-era100", "Kitchen", HOUSEHOLD),
    DeviceSpec("Office Speaker", "sonos-era100", "Office", "Daniel"),
    DeviceSpec("Nightstand Echo", "echo-dot5", "Primary Bedroom", "Maya"),
    DeviceSpec("Kids' Room Echo", "echo-dot5", "Kids' Room", "Leo"),
    DeviceSpec("Living Room TV", "lg-c3", "Living Room", HOUSEHOLD),
    DeviceSpec("Basement TV", "samsung-qn90c", "Basement", HOUSEHOLD),
    DeviceSpec("Maya's iPhone", "iphone15", "Primary Bedroom", "Maya"),
    DeviceSpec("Daniel's Pixel", "pixel8", "Office", "Daniel"),
    DeviceSpec("Priya's Galaxy", "galaxy-s24", "Guest Room", "Priya"),
    DeviceSpec("Leo's iPhone", "iphone15", "Kids' Room", "Leo"),
    DeviceSpec("Maya's MacBook", "macbook-air-m2", "Office", "Maya"),
    DeviceSpec("Daniel's ThinkPad", "x1-carbon", "Office", "Daniel"),
    DeviceSpec("Priya's XPS", "xps13", "Guest Room", "Priya"),
    DeviceSpec("Family iPad", "ipad-air", "Living Room", HOUSEHOLD),
    DeviceSpec("Leo's iPad", "ipad-air", "Kids' Room", "Leo"),
    DeviceSpec("Main Router", "eero-pro6e", "Hallway", HOUSEHOLD),
    DeviceSpec("Basement Mesh Node", "eero-pro6e", "Basement", HOUSEHOLD),
    DeviceSpec("Robot Vacuum", "roomba-j7", "Living Room", HOUSEHOLD),
    DeviceSpec("Bedroom Air Purifier", "dyson-tp07", "Primary Bedroom", "Maya"),
    DeviceSpec("Home NAS", "synology-ds224", "Office", HOUSEHOLD),
    DeviceSpec("PlayStation", "ps5", "Basement", "Leo"),
    DeviceSpec("Front Door Lock", "august-lock", "Porch", HOUSEHOLD),
    DeviceSpec("Garage Side Lock", "august-lock", "Garage", HOUSEHOLD),
)  # fmt: skip

ROOMS: tuple[str, ...] = (
    "Living Room", "Kitchen", "Office", "Primary Bedroom", "Kids' Room", "Guest Room",
    "Hallway", "Basement", "Garage", "Porch",
)  # fmt: skip
# Walls and floors between each room and the main router: more means a slower link.
ROOM_OBSTACLES: dict[str, int] = {
    "Hallway": 0, "Living Room": 1, "Kitchen": 1, "Office": 2, "Primary Bedroom": 2,
    "Kids' Room": 3, "Guest Room": 3, "Basement": 2, "Garage": 4, "Porch": 4,
}  # fmt: skip

RETAILERS: tuple[str, ...] = ("Best Buy", "Amazon", "Costco", "Target", "B&H Photo", "Apple Store")
REPAIR_ISSUES: tuple[str, ...] = (
    "does not power on", "battery drains quickly", "cracked screen", "Wi-Fi keeps dropping",
    "overheats", "buttons unresponsive", "no sound", "camera lens fogged",
)  # fmt: skip
# Out-of-warranty repair estimate as a share of the price paid, by category.
REPAIR_SHARE: dict[str, float] = {
    "phone": 0.35, "laptop": 0.3, "tablet": 0.35, "tv": 0.25, "console": 0.3,
    "thermostat": 0.4, "camera": 0.45, "speaker": 0.4, "router": 0.5, "vacuum": 0.35,
    "purifier": 0.3, "nas": 0.3, "light": 0.6, "plug": 0.8, "lock": 0.45,
}  # fmt: skip

# The household's electricity plan (a flat residential rate, US dollars per kWh).
UTILITY = "Northern Lakes Power"
RATE_USD_PER_KWH = (0.138, 0.152, 0.161, 0.174, 0.189)

# Three independent sources of each fact the sources notes name.
ENERGY_HUB = "HomeHub energy monitor"
ENERGY_VENDOR = "maker's companion app"
ENERGY_UTILITY = "Northern Lakes Power usage insights"
FIRMWARE_VENDOR = "maker's release notes"
FIRMWARE_MIRROR = "UpdateMirror CDN index"
FIRMWARE_COMMUNITY = "FirmwareWatch community tracker"
SPEED_ROUTER = "router built-in test"
SPEED_APP = "SpeedCheck app"
SPEED_MLAB = "M-Lab NDT"
BREACH_NOTICE = "company's regulator filing"
BREACH_INDEX = "BreachIndex"
BREACH_PRESS = "LeakWire news desk"
USAGE_PROVIDER = "provider storage API"
USAGE_CLIENT = "desktop sync client"
USAGE_BILLING = "billing portal"

ISP_PLAN_MBPS = (300, 500, 1000)
WIFI_BANDS: tuple[str, ...] = ("2.4GHz", "5GHz", "6GHz")
GUEST_CLIENTS: tuple[str, ...] = (
    "guest-android", "visitor-laptop", "unknown-espressif", "neighbor-ipad", "printer-hp",
    "smart-scale", "garage-opener", "kindle-paperwhite",
)  # fmt: skip


class Drive(NamedTuple):
    """A cloud storage plan a household member keeps."""

    provider: str
    plan: str
    quota_gb: int


DRIVE_PLANS: tuple[Drive, ...] = (
    Drive("DriveBox", "Basic 100 GB", 100),
    Drive("DriveBox", "Plus 200 GB", 200),
    Drive("CloudVault", "Standard 2 TB", 2000),
    Drive("CloudVault", "Starter 50 GB", 50),
    Drive("SkyLocker", "Family 1 TB", 1000),
    Drive("SkyLocker", "Solo 500 GB", 500),
)
FOLDER_NAMES: tuple[str, ...] = (
    "Photos", "Videos", "Documents", "Taxes", "School", "Music", "Backups", "Work",
    "Recipes", "Scans", "Projects", "Camera Roll",
)  # fmt: skip
BACKUP_FREQUENCIES: tuple[str, ...] = ("daily", "weekly", "monthly")


class Service(NamedTuple):
    """An online service household members have accounts with.

    ``response_days`` is how long it has by law to answer a privacy request (30 under
    GDPR-style rules, 45 under CCPA-style rules), ``min_length`` its own password rule.
    """

    name: str
    kind: str
    response_days: int
    min_length: int


SERVICES: tuple[Service, ...] = (
    Service("StreamNest", "video streaming", 45, 8),
    Service("PixelVault", "photo sharing", 30, 10),
    Service("ShopRiver", "online shopping", 45, 8),
    Service("FitTrack", "fitness tracking", 30, 8),
    Service("ChatterBox", "social network", 30, 8),
    Service("MailBarn", "email", 30, 12),
    Service("Ledgerly", "banking", 45, 12),
    Service("Wayfarer Trips", "travel booking", 45, 8),
    Service("Tunely", "music streaming", 30, 8),
    Service("QuickRide", "ride hailing", 45, 8),
    Service("GameForge", "gaming", 30, 8),
    Service("DocuDesk", "document editing", 30, 10),
    Service("Cartwheel Grocery", "grocery delivery", 45, 8),
    Service("NewsLoop", "news", 30, 8),
)
TWO_FACTOR: tuple[str, ...] = ("none", "sms", "authenticator_app", "security_key")
STRENGTHS: tuple[str, ...] = ("very_weak", "weak", "fair", "strong", "very_strong")
EMAIL_DOMAINS: tuple[str, ...] = ("mailbarn.com", "inboxly.net", "postcove.org")
DATA_CLASSES: tuple[str, ...] = (
    "email addresses", "passwords (hashed)", "phone numbers", "names", "dates of birth",
    "physical addresses", "payment card last four", "IP addresses", "purchase history",
)  # fmt: skip


class City(NamedTuple):
    """A city logins can come from."""

    name: str
    country: str
    latitude_deg: float
    longitude_deg: float


HOME_CITY = City("Minneapolis", "US", 44.9778, -93.265)
NEAR_CITIES: tuple[City, ...] = (
    City("St. Paul", "US", 44.9537, -93.09),
    City("Chicago", "US", 41.8781, -87.6298),
    City("Denver", "US", 39.7392, -104.9903),
    City("Seattle", "US", 47.6062, -122.3321),
    City("New York", "US", 40.7128, -74.006),
    City("Toronto", "CA", 43.6532, -79.3832),
)
FAR_CITIES: tuple[City, ...] = (
    City("Lisbon", "PT", 38.7223, -9.1393),
    City("Frankfurt", "DE", 50.1109, 8.6821),
    City("Singapore", "SG", 1.3521, 103.8198),
    City("Sao Paulo", "BR", -23.5505, -46.6333),
    City("Sydney", "AU", -33.8688, 151.2093),
    City("Seoul", "KR", 37.5665, 126.978),
    City("Johannesburg", "ZA", -26.2041, 28.0473),
    City("Mumbai", "IN", 19.076, 72.8777),
)
LOGIN_CLIENTS: tuple[str, ...] = (
    "Safari on iPhone", "Chrome on Windows", "Firefox on Linux", "Android app",
    "iOS app", "Edge on Windows", "Chrome on macOS",
)  # fmt: skip

APPS: tuple[str, ...] = (
    "ChatterBox", "FitTrack", "PixelVault", "QuickRide", "Wayfarer Trips", "Tunely",
    "ShopRiver", "Zoomly Meetings", "ScanPro", "WeatherNow", "MapQuest Go", "FlashLight+",
)  # fmt: skip
PERMISSIONS: tuple[str, ...] = (
    "camera",
    "microphone",
    "location",
    "contacts",
    "photos",
    "bluetooth",
    "calendar",
)
ACCESS_LEVELS: tuple[str, ...] = ("always", "while_using", "ask", "denied")
PRIVACY_KINDS: tuple[str, ...] = ("export", "deletion", "correction", "opt_out")
PRIVACY_STATUSES: tuple[str, ...] = ("submitted", "in_progress", "completed", "rejected")
