"""The "Moderators" group with just the permissions moderation needs, and, on
PostgreSQL, a trigger that refuses UPDATE and DELETE on the moderation log from any
client (the model and the admin refuse too; TRUNCATE, used only by test flushes, is
not a row operation and is left alone)."""

from django.db import migrations

GROUP = "Moderators"
PERMISSIONS = [
    ("moderation", "view_report"),      # the queue and each report's context
    ("moderation", "change_report"),    # close a report
    ("moderation", "view_sanction"),    # a player's moderation history
    ("moderation", "add_sanction"),     # warn, mute, ban, suspend, rename, hide a line
    ("moderation", "void_series"),      # void a series, mark cheating or boosting
    ("moderation", "view_moderationlog"),
    ("games", "view_chatmessage"),
    ("games", "view_conduct"),
]

TRIGGER = """
CREATE OR REPLACE FUNCTION moderation_log_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the moderation log is append-only';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER moderation_log_append_only
    BEFORE UPDATE OR DELETE ON moderation_moderationlog
    FOR EACH ROW EXECUTE FUNCTION moderation_log_append_only();
"""
DROP_TRIGGER = """
DROP TRIGGER IF EXISTS moderation_log_append_only ON moderation_moderationlog;
DROP FUNCTION IF EXISTS moderation_log_append_only();
"""


def create_group(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # Permissions are normally created after all migrations (post_migrate); create the
    # ones of these apps now so the group can have them.
    for label in ("moderation", "games"):
        config = apps.get_app_config(label)
        config.models_module = True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP)
    perms = [Permission.objects.get(content_type__app_label=app, codename=code)
             for app, code in PERMISSIONS]
    group.permissions.set(perms)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


def add_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(TRIGGER)


def drop_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP_TRIGGER)


class Migration(migrations.Migration):

    dependencies = [
        ("moderation", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [
        migrations.RunPython(create_group, remove_group),
        migrations.RunPython(add_trigger, drop_trigger),
    ]
