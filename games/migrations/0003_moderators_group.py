"""The "Moderators" group: the moderate permission and a read-only view of what they look after."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP = "Moderators"
PERMISSIONS = [
    ("games", "moderate"),
    ("games", "view_table"),
    ("games", "view_seat"),
    ("games", "view_match"),
    ("games", "view_move"),
    ("games", "view_report"),
    ("games", "view_moderationaction"),
    ("accounts", "view_user"),
]


def make_group(apps, schema_editor):
    # Permissions are normally made after all migrations; this one needs them now.
    # (Also called with the live app registry by tests, after a flush emptied the table.)
    for label in ("accounts", "games"):
        config = apps.get_app_config(label)
        kept = getattr(config, "models_module", None)
        config.models_module = kept or True
        create_permissions(config, apps=apps, verbosity=0)
        config.models_module = kept
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=GROUP)
    for app_label, codename in PERMISSIONS:
        group.permissions.add(Permission.objects.get(content_type__app_label=app_label, codename=codename))


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_moderation"),
        ("accounts", "0003_suspension"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(make_group, remove_group)]
