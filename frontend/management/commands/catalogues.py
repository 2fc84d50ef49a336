from django.core.management.base import BaseCommand, CommandError

from frontend import catalogues


class Command(BaseCommand):
    help = (
        "The translation catalogues (locale/) without GNU gettext: `update` merges the strings "
        "marked in the code into every .po (as makemessages), `compile` writes each .po as its "
        ".mo (as compilemessages), `check` fails when a string is missing, untranslated or "
        "fuzzy, or a .mo is stale. Needs Babel (requirements-dev.txt)."
    )

    def add_arguments(self, parser):
        parser.add_argument("job", choices=["update", "compile", "check"])

    def handle(self, *args, job, **options):
        if job == "update":
            for path in catalogues.update():
                self.stdout.write(f"updated {path.relative_to(catalogues.ROOT)}")
            return
        if job == "compile":
            for path in catalogues.compile():
                self.stdout.write(f"wrote {path.relative_to(catalogues.ROOT)}")
            return
        found = catalogues.problems()
        if found:
            raise CommandError("\n".join(found))
        self.stdout.write("the catalogues are complete and compiled")
