"""Communication subtopics, one module each, in the order of ``SUBTOPIC_ORDER``.

Mail, contacts and groups, chats, calls and voicemail, the family mobile plan, roaming,
newsletters, scheduled messages and video meetings.

Each template picks people, messages and records from the seeded world and writes the
request someone managing their own communications would make; the answer comes from
replaying the path, never from here.
"""

SUBTOPIC_ORDER = (
    "email_inbox",
    "contacts_and_groups",
    "group_chats_and_messaging",
    "calls_and_voicemail",
    "mobile_plan_and_usage",
    "roaming_and_international",
    "mailing_lists_and_newsletters",
    "scheduled_messages_and_reminders",
    "video_meetings",
)
