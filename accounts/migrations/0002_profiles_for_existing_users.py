"""Give every user that predates profiles a blank one (services.create_missing_profiles)."""

from __future__ import annotations

from django.apps.registry import Apps
from django.conf import settings
from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor


def forwards(apps: Apps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    from accounts.services import create_missing_profiles

    app_label, model_name = settings.AUTH_USER_MODEL.split(".")
    create_missing_profiles(
        profile_model=apps.get_model("accounts", "Profile"),
        user_model=apps.get_model(app_label, model_name),
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    # Backwards: the profiles are dropped with the table by reversing 0001.
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
