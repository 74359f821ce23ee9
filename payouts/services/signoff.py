"""The ranking sign-off: two signatures release the prizes of a place (ELM-07, ROLE-01)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tdmanager.roles import CONTROLLER, DIRECTOR, user_roles
from tdmanager.transactions import service
from tournaments.cashier.ledger import lock_tournament
from tournaments.eventlog.actions import Action
from tournaments.eventlog.services import Actor, log_event

from ..models import RankingSignoff
from ..selectors.prizes import ranking_snapshot
from .common import PayoutError, check_will_play


@service
def sign_off_ranking(tournament, *, actor: Actor) -> RankingSignoff:
    """Sign the ranking as it stands (ELM-07, ROLE-01). Prizes of a place are released once the
    director (the inspector) and the administrative controller, two different people, have
    signed it. A floor or cashier login cannot give either signature."""
    t = lock_tournament(tournament)
    check_will_play(t)
    roles = user_roles(actor.user)
    if CONTROLLER in roles:
        role = RankingSignoff.CONTROLLER
    elif DIRECTOR in roles:
        role = RankingSignoff.DIRECTOR
    else:
        raise PayoutError("not_a_signer", _("The ranking is signed by the director and the administrative controller."), status=403)
    snapshot = ranking_snapshot(t)
    if not snapshot:
        raise PayoutError("nothing_to_sign", _("No finishing place has been decided yet."))
    if RankingSignoff.objects.filter(tournament=t, user=actor.user, snapshot=snapshot).exists():
        raise PayoutError("already_signed", _("You have already signed this ranking; a second person must sign it."))
    signoff = RankingSignoff.objects.create(tournament=t, user=actor.user, role=role, snapshot=snapshot)
    log_event(t, Action.PAYOUTS_RANKING_SIGNED, actor, role=role, places=len(snapshot))
    return signoff
