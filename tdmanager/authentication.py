"""API token authentication that reads the user's roles in the same query as the token and the
user, so that a call's role check (``tdmanager.roles.user_roles``) asks the database nothing more."""

from functools import cache

from django.contrib.auth.models import Group
from django.db.models import Aggregate, CharField, OuterRef, Subquery
from rest_framework.authentication import TokenAuthentication

from .compiled import TEXT, Compiled
from .policy import DIRECTOR
from .roles import ROLES


class _Names(Aggregate):
    """The names, comma separated (the role names are fixed words without commas)."""

    function = "STRING_AGG"
    template = "%(function)s(%(expressions)s, ',')"
    output_field = CharField()

    def as_sqlite(self, compiler, connection, **extra_context):
        return super().as_sql(compiler, connection, function="GROUP_CONCAT", **extra_context)


@cache
def _lookup(authentication: type) -> Compiled:
    """The token query of an authentication class (``TokenWithRoles.query``), compiled once per
    process and database: building and compiling it cost every API call more CPU than running it."""
    made = authentication()
    return Compiled(made.query, made.get_model(), kinds=(TEXT,))


class TokenWithRoles(TokenAuthentication):
    """DRF's token authentication (``Authorization: Token …``), the roles read along."""

    def query(self, key):
        """The token of ``key``, its user loaded along, the user's role names as ``tdm_role_names``."""
        roles = Group.objects.filter(user=OuterRef("user_id"), name__in=ROLES).values("user").annotate(names=_Names("name")).values("names")
        return self.get_model().objects.select_related("user").annotate(tdm_role_names=Subquery(roles)).filter(key=key)

    def authenticate_credentials(self, key):
        token = _lookup(type(self)).first(key)
        if token is None or not token.user.is_active:
            return super().authenticate_credentials(key)  # DRF's own refusal, in the user's language
        held = set(filter(None, (token.tdm_role_names or "").split(",")))
        if token.user.is_superuser:
            held.add(DIRECTOR)
        token.user._tdm_roles = held  # what tdmanager.roles.user_roles keeps for the request
        return token.user, token
