"""Productivity subtopics: team workflow and data and analytics.

Workflow: tasks, calendars, meeting rooms, documents and time tracking. Data and
analytics: spreadsheet queries, dashboards, surveys and A/B experiments.
"""

SUBTOPIC_ORDER = (
    "task_management",
    "calendar_scheduling",
    "meeting_rooms",
    "notes_and_documents",
    "time_tracking",
    "spreadsheet_queries",
    "dashboards_and_kpis",
    "survey_analysis",
    "ab_experiments",
)
