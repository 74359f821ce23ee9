"""The lobby screens' links in the simulated days: the director gives a screen a new link, stops
its link (a TV taken away) or deletes the screen. The old link answers nobody at once, and a new
one shows the screen's event (``invariants.screen_links_end_at_once``). They register in the
core's ``ACTIONS`` (``catalogue.py`` imports this module)."""

from __future__ import annotations

from tournaments.models import DisplayScreen, Tournament
from tournaments.screens import services as screen_services

from .actions import _event, action
from .world import World


@action(weight=1)
def end_screen_link(world: World, rng) -> str:
    """A screen of an event (made now when it has none, or now and then anyway) gets a new link,
    has its link stopped, or is deleted."""
    t = _event(world, rng, Tournament.REGISTERING, Tournament.RUNNING)
    screens = list(DisplayScreen.objects.filter(tournament=t, token_revoked_at__isnull=True).order_by("pk"))
    if not screens or rng.random() < 0.3:
        screens.append(screen_services.create_screen({"name": f"TV {t.pk}.{rng.randrange(1000)}", "tournament": t}, actor=world.director))
    screen = rng.choice(screens)
    old, what = screen.token, rng.choice(("rotate", "revoke", "delete"))
    world.designed = True  # the screens changed: their pages are read again
    if what == "rotate":
        screen = screen_services.rotate_screen_token(screen, actor=world.director)
        world.screen_links.append((screen.token, t.pk))
    elif what == "revoke":
        screen_services.revoke_screen_token(screen, actor=world.director)
    else:
        screen_services.delete_screen(screen, actor=world.director)
    world.ended_links.append((old, t.pk))
    return f"{screen.name} of {t.name}: link {what}d"
