"""A director's login, made from the command line (the first login of a new installation)."""

import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand, CommandError

from tdmanager import usernames
from tdmanager.errors import DomainError
from tdmanager.roles import ROLES


class Command(BaseCommand):
    help = "Create a staff user with a role (default: the first director). Prints a generated password."

    def add_arguments(self, parser):
        parser.add_argument("username", nargs="?", default="director")
        parser.add_argument("--password", help="default: a generated one, printed once")
        parser.add_argument("--role", default="director", choices=ROLES)
        parser.add_argument("--if-none", action="store_true", help="do nothing if a director already exists")

    def handle(self, username, password=None, role="director", if_none=False, **opts):
        User = get_user_model()
        if if_none and User.objects.filter(groups__name="director").exists():
            return
        # the staff page's rule (tdmanager.usernames): NFKC, one login per name in any case, no
        # look-alike letters mixed
        try:
            username = usernames.checked(username)
        except DomainError as exc:
            raise CommandError(str(exc.message)) from None
        if usernames.holder(username) is not None:
            raise CommandError(f"user {username!r} already exists")
        password = password or secrets.token_urlsafe(9)
        user = User.objects.create_user(username=username, password=password, is_staff=role == "director")
        user.groups.add(Group.objects.get_or_create(name=role)[0])
        self.stdout.write(self.style.SUCCESS(f"{role} login created: username={username} password={password}"))
