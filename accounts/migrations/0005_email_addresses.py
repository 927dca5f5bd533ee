"""Every account from before allauth gets its address as allauth's primary
EmailAddress, unconfirmed: nobody ever followed a link to it, so the site
mails it nothing but what its owner asks for (a password reset) until they do."""

from django.db import migrations


def add_unconfirmed_addresses(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    EmailAddress = apps.get_model("account", "EmailAddress")
    have = set(EmailAddress.objects.values_list("user_id", flat=True))
    rows = [
        EmailAddress(user_id=pk, email=email.lower(), primary=True, verified=False)
        for pk, email in User.objects.exclude(email="").values_list("pk", "email")
        if pk not in have
    ]
    EmailAddress.objects.bulk_create(rows, batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0004_name_keys"),
        ("account", "0009_emailaddress_unique_primary_email"),
    ]

    operations = [
        migrations.RunPython(add_unconfirmed_addresses, migrations.RunPython.noop),
    ]
