from django.db import migrations, models

from accounts.names import SKELETON_MAX_LENGTH, name_keys


def fill_name_keys(apps, schema_editor):
    # Historical models have no custom save(), so the keys are set here.
    User = apps.get_model("accounts", "User")
    users = list(User.objects.only("pk", "username", "display_name"))
    for user in users:
        user.username_key, user.display_name_key = name_keys(user.username, user.display_name)
    User.objects.bulk_update(users, ["username_key", "display_name_key"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0003_suspension"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_key",
            field=models.CharField(db_index=True, default="", editable=False, max_length=SKELETON_MAX_LENGTH),
        ),
        migrations.AddField(
            model_name="user",
            name="display_name_key",
            field=models.CharField(
                blank=True, db_index=True, default="", editable=False, max_length=SKELETON_MAX_LENGTH),
        ),
        migrations.RunPython(fill_name_keys, migrations.RunPython.noop),
    ]
