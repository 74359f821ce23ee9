"""The staff's languages in the simulated day: a login picks its language on one device, and
every device of that login (a page already open, a tablet's token) speaks it from its next
request (``invariants.logins_speak_their_language``)."""

from django.conf import settings

from tournaments.staff import services as staff_services

from .actions import action
from .world import World


@action(weight=1)
def choose_language(world: World, rng) -> str:
    """A staff login (the director, a cashier, the floor) picks one of the room's languages with
    the page's picker; it is kept with the login."""
    actor = rng.choice([world.director, *world.cashiers, world.floor])
    code = rng.choice([code for code, _name in settings.LANGUAGES])
    staff_services.choose_language(actor.user, code)
    world.languages_chosen.append((actor.user, code))
    return f"{actor.user.get_username()} now works in {code}"
