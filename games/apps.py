from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from .after_commit import chat  # noqa: F401 -- its receivers tell readers' sockets of changed settings
