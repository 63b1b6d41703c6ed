"""Devices subtopics: a household's gadgets and its members' online security.

Technology and devices: smart home, warranties, firmware, cloud storage, Wi-Fi. Security
and privacy: accounts, sign-ins, breaches, app permissions, privacy requests.

Each template picks devices, drives, rooms and accounts from the seeded world and writes
the request a household member would make; the answer comes from replaying the path,
never from here. Templates read the world (``read`` or ``ctx.rows``) only to choose
entities that make a well-posed task.
"""

SUBTOPIC_ORDER = (
    "app_permissions",
    "privacy_requests",
    "login_activity",
    "device_warranties_and_repairs",
    "account_security",
    "smart_home_control",
    "software_updates",
    "cloud_storage_and_backups",
    "home_network",
    "data_breach_alerts",
)
