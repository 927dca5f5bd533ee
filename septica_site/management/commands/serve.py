"""`manage.py serve`: the whole site in one process (HTTP, websockets, and in
the embedded setup the Celery worker), announcing when it is ready."""

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Serve the site with daphne (ASGI: pages, API and websockets)."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)

    def handle(self, *args, host, port, **options):
        from daphne.endpoints import build_endpoint_description_strings
        from daphne.server import Server

        from septica_site import daphne_requests
        from septica_site.asgi import application

        daphne_requests.install()  # a body Twisted cannot parse as a form reaches the site, not a bare 400

        url = f"http://{host}:{port}"

        def announce():
            self.stdout.write(self.style.SUCCESS(f"Septica is ready at {url}"), ending="\n")
            self.stdout.flush()

        Server(
            application=application,
            endpoints=build_endpoint_description_strings(host=host, port=port),
            ready_callable=announce,
            signal_handlers=True,
            verbosity=1,
        ).run()
