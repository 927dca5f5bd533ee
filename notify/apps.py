from django.apps import AppConfig


class NotifyConfig(AppConfig):
    name = "notify"
    verbose_name = "Notifications: in the page, web push and e-mail"

    def ready(self) -> None:
        from . import signals  # noqa: F401  (connects the receivers)
